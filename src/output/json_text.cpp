#include "output/json_text.h"

#include "core/number_text.h"

#include <cmath>

namespace animdex {

namespace {

void write_float(std::string& out, double value) {
  if (!std::isfinite(value)) {  // not JSON: nlohmann writes null
    out += "null";
    return;
  }
  const std::string text = shortest_text(value);
  out += text;
  if (text.find_first_of(".e") == std::string_view::npos) out += ".0";  // a float stays a float: 2.0
}

void write(std::string& out, const nlohmann::ordered_json& value, int indent, int depth) {
  const bool pretty = indent >= 0;
  const auto newline = [&](int level) {
    if (!pretty) return;
    out += '\n';
    out.append(static_cast<std::size_t>(indent * level), ' ');
  };
  if (value.is_object() || value.is_array()) {
    const bool object = value.is_object();
    if (value.empty()) {
      out += object ? "{}" : "[]";
      return;
    }
    out += object ? '{' : '[';
    bool first = true;
    for (auto item = value.begin(); item != value.end(); ++item) {
      if (!first) out += ',';
      first = false;
      newline(depth + 1);
      if (object) {
        out += nlohmann::ordered_json(item.key()).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
        out += pretty ? ": " : ":";
      }
      write(out, *item, indent, depth + 1);
    }
    newline(depth);
    out += object ? '}' : ']';
    return;
  }
  if (value.is_number_float()) return write_float(out, value.get<double>());
  out += value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace

std::string json_text(const nlohmann::ordered_json& value, int indent) {
  std::string out;
  write(out, value, indent, 0);
  return out;
}

}  // namespace animdex
