#include "formats/nitro/nitro_pose.h"

namespace animdex::nitro {

double request_fps(const PoseRequest& request) { return request.fps.value_or(60.0); }

Answer<int> integer_frame(const PoseRequest& request, int frame_count, const std::string& animation) {
  std::optional<double> frame = request.frame;
  if (!frame && request.seconds) frame = *request.seconds * request_fps(request);
  if (!frame || *frame != std::floor(*frame) || !std::isfinite(*frame))
    return usage_error(fmt::format("Nitro animations are sampled at integer frames: give --frame F (0..{}) or a "
                                   "--time on a frame at {} fps", frame_count - 1, request_fps(request)));
  if (*frame < 0 || *frame >= frame_count)
    return usage_error(fmt::format("frame {} is outside 0..{} of '{}'", *frame, frame_count - 1, animation));
  return static_cast<int>(*frame);
}

std::vector<std::pair<std::string, PoseValue>> pose_about(const std::string& animation, int frame, double fps,
                                                          int frame_count) {
  return {{"slot", PoseValue()},
          {"animation", animation},
          {"time", frame / fps},
          {"frame", std::int64_t{frame}},
          {"fps", fps},
          {"frame_count", std::int64_t{frame_count}}};
}

}  // namespace animdex::nitro
