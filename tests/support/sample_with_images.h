#pragma once
// A sample dump without its broken files (3 characters, KH2 and NSBCA included) and the disc
// images and archives built from it, in a temporary folder of their own.
#include <filesystem>

#include "sample/sample_dump.h"
#include "sample/sample_images.h"
#include "support/test_support.h"

namespace animdex::test {

struct SampleWithImages {
  TempDir dir;
  std::filesystem::path dump = dir / "dump";
  std::filesystem::path images = dir / "images";
  SampleWithImages() {
    SampleDumpOptions options;
    options.character_count = 3;
    options.include_problem_files = false;
    options.include_kh2 = options.include_nsbca = true;
    write_sample_dump(dump, options);
    write_sample_images(dump, images);
  }
};

}  // namespace animdex::test
