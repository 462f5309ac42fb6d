#include "formats/nitro/bca0_format.h"

#include "formats/nitro/bca0_model.h"
#include "formats/nitro/bca0_parser.h"
#include "formats/nitro/bca0_curves.h"
#include "formats/nitro/bca0_pose.h"
#include "formats/nitro/nitro_export.h"
#include "formats/nitro/nitro_format.h"

namespace animdex::nsbca {

namespace {

Result<model::AnimationFile> parse_to_model(std::span<const std::byte> bytes) {
  auto parsed = parse_nsbca(bytes);
  if (!parsed) return parsed.error();
  return to_model(parsed.value());
}

}  // namespace

bool detect_nsbca(std::span<const std::byte> head, std::uint64_t) {
  return head.size() >= 4 && head[0] == std::byte{'B'} && head[1] == std::byte{'C'} && head[2] == std::byte{'A'} &&
         head[3] == std::byte{'0'};
}

FormatModule format_module() {
  FormatModule module{"nsbca",
                      "Nintendo DS NSBCA (BCA0 joint animations: JNT0 dictionary, J.AC per animation; fixed point)",
                      "", &detect_nsbca, &parse_to_model};
  module.pose = &pose_nodes;
  module.curves = &curves_nodes;
  module.exportable = &nitro::bca0_exportable;
  module.sample = &nitro::bca0_sample;
  module = nitro::in_nitro_family(module, ".nsbca");
  module.help.fps = "60";
  return module;
}

}  // namespace animdex::nsbca
