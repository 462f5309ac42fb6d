#pragma once
// What the BTA0, BTP0 and BMA0 tests share: a parse that must succeed, a pose that must answer,
// and reading a pose's cells.
#include <catch2/catch.hpp>
#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "core/result.h"
#include "formats/capabilities.h"

namespace animdex::test {

template <typename T>
T parsed_ok(Result<T> result) {
  if (!result.ok()) FAIL(result.error().message());
  return std::move(result).value();
}

using PoseFunction = Answer<Pose> (*)(std::span<const std::byte>, const PoseRequest&);

inline Pose pose_ok(PoseFunction pose, std::span<const std::byte> bytes, int frame, const std::string& animation = "") {
  PoseRequest request;
  request.frame = frame;
  request.animation = animation;
  auto answer = pose(bytes, request);
  if (const auto* error = std::get_if<CapabilityError>(&answer)) FAIL(error->message);
  return std::get<Pose>(std::move(answer));
}

inline std::vector<double> vector_cell(const Pose& pose, std::size_t row, std::size_t column) {
  return std::get<std::vector<double>>(pose.rows.at(row).at(column));
}

}  // namespace animdex::test
