// Real CISO images under ../shared/corpus/real list through their view like plain discs (and
// GNT4's matches the note's FST numbers). The corpus has none today, so this usually skips.
#include <catch2/catch.hpp>

#include <memory>

#include "containers/ciso/ciso_container.h"
#include "containers/container_test_support.h"
#include "containers/gcm/gcm_test_support.h"

using namespace animdex;

TEST_CASE("real CISO images list through their view", "[ciso][real]") {
  const auto shared = test::shared_dir();
  ANIMDEX_SKIP_UNLESS(shared, "../shared not found: skipping the real CISO test");
  const auto images = test::files_with_extensions(*shared / "corpus" / "real", {".ciso"});
  if (images.empty()) {
    WARN("no .ciso under ../shared/corpus/real: skipping the real CISO test");
    return;
  }
  for (const auto& path : images) {
    INFO(path.string());
    const auto view = ciso::open_ciso(std::make_shared<const test::StreamSource>(path));
    INFO((view.ok() ? std::string() : view.error().message()));
    REQUIRE(view.ok());
    test::check_real_disc(*view.value());
  }
}
