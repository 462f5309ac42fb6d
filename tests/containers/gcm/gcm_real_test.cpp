// The note's real-disc vector (containers.md section 2): GNT4's FST is 0x33E7 bytes with 563
// entries, and its motions' FPKs are at fpack/chr/<code>1000.fpk. Needs a GameCube image (.iso,
// .gcm) under ../shared/corpus/real; the corpus has none today, so this usually skips. (.ciso
// images: tests/containers/ciso/ciso_real_test.cpp.)
#include <catch2/catch.hpp>

#include <memory>

#include "containers/container_test_support.h"
#include "containers/gcm/gcm_container.h"
#include "containers/gcm/gcm_test_support.h"

using namespace animdex;

TEST_CASE("real GameCube images list, and GNT4's FST matches the note", "[gcm][real]") {
  const auto shared = test::shared_dir();
  ANIMDEX_SKIP_UNLESS(shared, "../shared not found: skipping the real-disc test");
  const auto images = test::files_with_extensions(*shared / "corpus" / "real", {".iso", ".gcm"});
  if (images.empty()) {
    WARN("no .iso/.gcm under ../shared/corpus/real: skipping the real-disc test (GNT4 FST vector unchecked)");
    return;
  }
  for (const auto& path : images) {
    INFO(path.string());
    const test::StreamSource disc(path);
    const auto head = disc.read_vector(0, std::min<std::uint64_t>(disc.size(), 0x440));
    if (!gcm::detect_gcm(head, disc.size())) continue;  // another system's ISO (KH2's PS2 DVD)
    test::check_real_disc(disc);
  }
}
