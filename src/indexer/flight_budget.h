#pragma once
// What the files between the index pipeline's stages may hold. A file in flight holds its bytes
// (read, or a KH2 member decoded by the scan), then while it parses its model, then its rows until
// the writer has them. Bounding each file by its worst case (--max-file-size plus the parse budget,
// 48 MiB) allowed 3 in flight, and most files are a few KiB: the scan then stood idle behind one
// large file's parse and write, and the second core with it (a KH2 DVD: 3.4-3.5 s of files at 3
// in flight, 2.8-2.9 s at 9). So the worst case is charged only where it can occur, in the parse,
// which holds at most one file a thread (the pipeline keeps the threads within the number of worst
// cases kInFlightBudget allows), and the files that wait for the writer are charged what they
// hold: the scan waits while they hold `waiting_bytes`. What can be held is then at most
// threads x (bytes + model, or the rows it made) + waiting_bytes + the charge of one file handed
// out (a decoded member, and the containers the files before it may still hold).
//
// The stages must not run nested parallel work outside tbb::this_task_arena::isolate: a thread
// waiting in one could take the pipeline's next scan and wait here for room its own work holds.
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>

namespace animdex {

class FlightBudget {
 public:
  explicit FlightBudget(std::uint64_t waiting_bytes);

  // The scan stage, before it hands out a file: waits while the files waiting for the writer hold
  // the budget, but never while nothing is in flight (a file over the whole budget goes then).
  // False when the pipeline is ending (abandoned, or its task group cancelled): hand out nothing.
  bool wait_for_room();
  void enter(std::uint64_t bytes);  // a file handed out, holding `bytes`
  // A file out of the parse stage holds its rows now: `before` of its charge becomes `after`.
  void parsed(std::uint64_t before, std::uint64_t after);
  void leave(std::uint64_t bytes);  // written: it holds nothing the budget counts
  // A stage failed and the pipeline is ending: nothing waits any more.
  void abandon();

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  const std::uint64_t waiting_limit_;
  std::uint64_t held_ = 0;
  std::size_t files_ = 0;     // handed out, not yet written
  bool abandoned_ = false;
};

}  // namespace animdex
