#pragma once
// The 3D player page: a skeleton drawn with three.js (Debian's libjs-three) from the .glb that
// `export --gltf` writes, embedded as base64, playing each of its animations. It opens from
// file:// with no server and no network: the scripts are inlined (`animdex view`), or read from
// files beside the page (`report docs` writes them once into its players/ folder).
//
// The address chooses the animation and frame (`page.html#anim=NAME&frame=30`; a frame counts
// samples from the animation's first). The page exposes `window.animdexPose(frame)`: every joint's
// world position [x, y, z] (the skin's joint order) at that frame of the shown animation, and
// `window.animdexChoose(name)`. When ready it sets body data-ready="1", data-animation, data-frame
// and data-pose (the pose at the shown frame, JSON); a failure sets data-error. Names from the
// file reach the page only as text (textContent, escaped HTML, JSON with '<' escaped).
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/curves.h"

namespace animdex::reports {

struct PlayerAnimation {
  std::string name;         // the glTF animation's name, which #anim= takes
  std::string slot;         // the format's slot text (as curves name it), empty where it has none
  std::string source_name;  // the format's own name of it (DS: what --anim takes)
  double fps = 60;          // samples per second
  double first_time = 0;    // seconds of frame 0 in the source's own time
  std::size_t frames = 1;   // samples
};

// libjs-three's scripts: their text (inlined), or their addresses relative to the page.
struct PlayerScripts {
  bool inlined = true;
  std::string three, gltf_loader, orbit_controls;
};

struct PlayerPage {
  std::string title;                        // the file, as the user named it
  std::string glb_base64;                   // the export's bytes (rig::base64)
  std::vector<PlayerAnimation> animations;  // in the .glb's order
  std::vector<std::string> joint_names;     // in the skin's order, shown on hover
  std::vector<std::string> notes;           // shown under the player: the skeleton, what was left out and why
  std::string back_link;                    // empty, or an address the page links back to (docs, plot)
  std::string next_link;                    // empty, or the page that holds the file's next animations
  bool more = false;                        // animations past the page's budget were left out
};

// A file's player as made again from the file (cli/view_verb.h), or why there is none.
struct FilePlayer {
  PlayerPage page;
  std::string problem;  // empty when `page` holds at least one animation
};

// The generator mark the page carries: `plot` replaces a player page beside its output only when
// it holds this mark, never a file of the user's.
inline constexpr std::string_view kPlayerGenerator = "<meta name=\"generator\" content=\"animdex player\">";

std::string player_page_html(const PlayerPage& page, const PlayerScripts& scripts);

// Two dumps' players of one file drawn over one another (`diff --format html`): the older in blue,
// the newer in red, one slider and chooser for both. animdexPoses(frame) gives each side's joint
// positions (null where a side lacks the animation); animdexPose the first side that has it; the
// body's data-poses holds the shown frame's.
struct ComparePage {
  std::string title;
  PlayerPage before, after;        // each side's .glb, animations and joint names (their notes unused)
  std::vector<std::string> notes;  // shown under the player
  std::string back_link;
};

// The animations the page offers: the newer side's in its order, then those only the older has,
// paired by their slot where the format has slots, else by their name; indices into each side.
struct ComparedAnimation {
  std::optional<std::size_t> before, after;
};
std::vector<ComparedAnimation> compared_animations(const PlayerPage& before, const PlayerPage& after);

std::string compare_page_html(const ComparePage& page, const PlayerScripts& scripts);

// `text` with every byte but letters, digits and "-_.~" written %XX, as an address's part.
std::string percent_encoded(std::string_view text);

// The address of `animation` in the player at `page` (relative): "page.html#anim=NAME" with the
// name percent-encoded, as the page reads it.
std::string player_link(std::string_view page, std::string_view animation);

// Each animation's address in the player pages that hold it, found by what its curves call it:
// its slot where the format has slots, else the format's name of it.
class PlayerAddresses {
 public:
  void add(const PlayerPage& page, const std::string& href);  // the first page holding an animation wins
  std::string of(const AnimationCurves& curves) const;        // empty when no page holds it

 private:
  std::map<std::string, std::string> by_key_;
};

}  // namespace animdex::reports
