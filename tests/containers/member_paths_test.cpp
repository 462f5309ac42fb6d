// One name, one member (issue 35 item 6): the paths the indexer stores and the verbs look up are
// made by one function, unique and prefix-free for any names a container can hold, in linear time.
#include <catch2/catch.hpp>
#include <chrono>
#include <fmt/format.h>

#include "containers/member_paths.h"

using namespace animdex;

namespace {

std::vector<std::string> unique(const std::vector<std::string>& paths, std::vector<std::string>* warnings = nullptr) {
  std::vector<Member> members(paths.size());
  for (std::size_t i = 0; i < paths.size(); ++i) members[i].path = paths[i];
  std::vector<std::string> kept;
  make_member_paths_unique(members, warnings ? *warnings : kept, "d.narc");
  std::vector<std::string> out;
  for (const auto& member : members) out.push_back(member.path);
  return out;
}

}  // namespace

TEST_CASE("member paths: a repeat gets the first free #k, a literal name keeps its own", "[containers][paths]") {
  CHECK(unique({"dup", "dup"}) == std::vector<std::string>{"dup", "dup#2"});
  // The member literally named dup#2 keeps that name wherever it comes, so `dup#2` names one member.
  CHECK(unique({"dup", "dup", "dup#2"}) == std::vector<std::string>{"dup", "dup#3", "dup#2"});
  CHECK(unique({"dup#2", "dup", "dup", "dup"}) == std::vector<std::string>{"dup#2", "dup", "dup#3", "dup#4"});
  CHECK(unique({"a/x", "b/x", "a/x"}) == std::vector<std::string>{"a/x", "b/x", "a/x#2"});
  std::vector<std::string> warnings;
  unique({"dup", "dup"}, &warnings);
  CHECK(warnings == std::vector<std::string>{"d.narc: entry 1 repeats the path dup; listed as dup#2"});
}

TEST_CASE("member paths: a member that is also another's folder is renamed, so nested paths cannot collide",
          "[containers][paths]") {
  // `a` may be an archive holding `b`: d/a/b would then be two members.
  CHECK(unique({"a", "a/b"}) == std::vector<std::string>{"a#2", "a/b"});
  CHECK(unique({"a/b", "a"}) == std::vector<std::string>{"a/b", "a#2"});
  CHECK(unique({"a", "a#2/c", "a/b"}) == std::vector<std::string>{"a#3", "a#2/c", "a/b"});
}

TEST_CASE("member paths: 40,000 repeats of one name take linear time", "[containers][paths][caps]") {
  std::vector<std::string> paths(40'000, "same.bca");
  paths.push_back("same.bca#7");
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::string> warnings;
  const auto out = unique(paths, &warnings);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(seconds < 2.0);  // quadratic retrying from #2 took 150 s in the issue
  CHECK(out[6] == "same.bca#8");  // #7 is a real name
  CHECK(out[39'999] == "same.bca#40001");
  CHECK(out.back() == "same.bca#7");
  CHECK(warnings.size() == 17);  // 16 and a count
  CHECK(warnings.back() == "39983 more repeated paths not listed");
}

TEST_CASE("member names with a NUL are escaped, not cut", "[containers][paths]") {
  CHECK(escape_member_name(std::string("a\0b.bca", 7)) == "a\\x00b.bca");
  CHECK(escape_member_name("plain") == "plain");
}

TEST_CASE("cap_warnings keeps the first ones and counts the rest", "[containers][paths][caps]") {
  std::vector<std::string> warnings(1000, "w");
  cap_warnings(warnings, 100);
  CHECK(warnings.size() == 101);
  CHECK(warnings.back() == "... and 900 more warnings");
}
