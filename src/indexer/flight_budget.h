#pragma once
// What the files between the index pipeline's stages may hold. A file in flight holds its bytes
// (read, or a KH2 member decoded by the scan), then while it parses its model, then its rows until
// the writer has them. Bounding each file by its worst case (--max-file-size plus the parse budget,
// 48 MiB) allowed 3 in flight, and most files are a few KiB: the scan then stood idle behind one
// large file's parse and write, and the second core with it (a KH2 DVD: 3.4 s of files at 3 in
// flight, 2.7 s at 9). So the worst case is charged only where it can occur, in the parse (at most
// `parse_slots` files at once), and files that wait are charged what they hold, within
// `waiting_bytes`: the scan waits for room before it hands out the next file.
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>

namespace animdex {

class FlightBudget {
 public:
  FlightBudget(std::uint64_t waiting_bytes, std::size_t parse_slots);

  // The scan stage, before it hands out a file: waits while the files in flight hold the waiting
  // budget. Never while none is in flight (a file over the whole budget goes alone), so the one
  // thread that could free room is never the one waiting.
  void wait_for_room();
  void enter(std::uint64_t bytes);  // a file handed out, holding `bytes`
  // The parse stage: at most parse_slots files at once.
  void begin_parse();
  void end_parse();
  // A parsed file holds its rows now, not its bytes.
  void change(std::uint64_t before, std::uint64_t after);
  void leave(std::uint64_t bytes);  // written: it holds nothing the budget counts
  // A stage failed and the pipeline is ending: nothing waits any more.
  void abandon();

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  const std::uint64_t waiting_limit_;
  const std::size_t parse_slots_;
  std::uint64_t held_ = 0;
  std::size_t files_ = 0;
  std::size_t parsing_ = 0;
  bool abandoned_ = false;
};

}  // namespace animdex
