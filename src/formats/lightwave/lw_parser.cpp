#include <algorithm>
#include "formats/lightwave/lw_parser.h"

#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <numbers>
#include <string_view>

#include "core/parse_budget.h"
#include "core/parse_deadline.h"
#include "model/animation.h"
#include "core/parse_error.h"

namespace animdex::lightwave {

namespace {

// A key as parsed, as a model key and as its spline.
constexpr std::uint64_t kBytesPerKey = sizeof(Key) + model::kBytesPerKey + sizeof(model::KeySpline);

struct Token {
  std::string_view text;
  std::uint64_t offset = 0;
};

struct Line {
  std::size_t number = 0;  // 1-based
  std::uint64_t offset = 0;
  std::vector<Token> tokens;
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

// Splits the text into lines of whitespace-separated tokens (LF or CRLF, final newline optional).
std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> lines;
  std::size_t start = 0;
  std::size_t number = 1;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    // A file of empty lines or one-letter tokens would otherwise hold many times its size.
    charge_parse_memory(1, sizeof(Line), start, "lines");
    Line line{number++, start, {}};
    std::size_t i = start;
    while (i < end) {
      while (i < end && is_space(text[i])) ++i;
      const std::size_t token_start = i;
      while (i < end && !is_space(text[i])) ++i;
      if (i > token_start) {
        charge_parse_memory(1, sizeof(Token), token_start, "tokens");
        line.tokens.push_back({text.substr(token_start, i - token_start), token_start});
      }
    }
    lines.push_back(std::move(line));
    if (end == text.size()) break;
    start = end + 1;
  }
  return lines;
}

std::string shown(std::string_view text) {
  std::string out;
  for (char c : text.substr(0, 40)) out += (c >= 0x20 && c < 0x7F) ? c : '?';
  return "'" + out + (text.size() > 40 ? "...'" : "'");
}

double number(const Token& token, std::string_view what) {
  // Text parsers do not go through ByteReader, so they check the parse deadline here.
  thread_local std::uint32_t numbers_read = 0;
  if (++numbers_read % kDeadlineCheckInterval == 0) check_parse_deadline(token.offset);
  std::string_view text = token.text;
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty())
    fail_at(token.offset, fmt::format("a number ({})", what), shown(token.text));
  if (!std::isfinite(value)) fail_at(token.offset, fmt::format("a finite number ({})", what), shown(token.text));
  return value;
}

std::int64_t integer(const Token& token, std::string_view what) {
  const double value = number(token, what);
  if (value != std::floor(value) || std::fabs(value) > 9.0e15)
    fail_at(token.offset, fmt::format("an integer ({})", what), shown(token.text));
  return static_cast<std::int64_t>(value);
}

void warn_tcb(LwFile& file, const Key& key, int channel, std::size_t key_index) {
  for (int i = 0; i < 3; ++i)
    if (key.params[i] < -1.0 || key.params[i] > 1.0) {
      file.warnings.push_back(fmt::format("channel {} key {}: {} {} is outside [-1, 1]", channel, key_index,
                                          i == 0 ? "tension" : i == 1 ? "continuity" : "bias", key.params[i]));
      return;
    }
}

// ---- version 1: numeric after the header, line structure ignored ----
void parse_v1(LwFile& file, const std::vector<Token>& tokens, std::uint64_t end_offset) {
  std::size_t next = 2;
  auto take = [&](std::string_view what) -> const Token& {
    if (next >= tokens.size()) fail_at(end_offset, std::string(what), "the end of the file");
    return tokens[next++];
  };
  const Token& count_token = take("the number of channels per key");
  const std::int64_t channel_count = integer(count_token, "channels per key");
  if (channel_count < 1) fail_at(count_token.offset, "at least 1 channel per key", shown(count_token.text));
  const Token& keys_token = take("the number of keys");
  const std::int64_t key_count = integer(keys_token, "number of keys");
  if (key_count < 1) fail_at(keys_token.offset, "at least 1 key", shown(keys_token.text));
  const std::uint64_t per_key = static_cast<std::uint64_t>(channel_count) + 5;
  const std::uint64_t available = tokens.size() - next;
  if (per_key > available || static_cast<std::uint64_t>(key_count) > available / per_key)
    fail_at(end_offset,
            fmt::format("{} numbers for {} keys of {} channels (+5 spline numbers each)",
                        static_cast<double>(key_count) * static_cast<double>(per_key), key_count, channel_count),
            fmt::format("{} numbers", available));
  if (available != static_cast<std::uint64_t>(key_count) * per_key)
    fail_at(tokens[next + static_cast<std::size_t>(key_count * static_cast<std::int64_t>(per_key))].offset,
            fmt::format("the end of the file after {} keys", key_count), "more numbers");
  const bool expected_count = file.kind == FileKind::motion ? channel_count == 9 : channel_count == 1;
  if (!expected_count)
    file.warnings.push_back(fmt::format("{} channels per key (expected {})", channel_count,
                                        file.kind == FileKind::motion ? 9 : 1));

  charge_parse_memory(static_cast<std::uint64_t>(key_count) * static_cast<std::uint64_t>(channel_count), kBytesPerKey,
                      keys_token.offset, "keys");
  file.channels.resize(static_cast<std::size_t>(channel_count));
  for (std::size_t c = 0; c < file.channels.size(); ++c) {
    file.channels[c].index = static_cast<int>(c);
    file.channels[c].keys.reserve(static_cast<std::size_t>(key_count));
  }
  std::optional<std::int64_t> previous_frame;
  for (std::int64_t k = 0; k < key_count; ++k) {
    std::vector<double> values;
    for (std::int64_t c = 0; c < channel_count; ++c) values.push_back(number(take("a channel value"), "channel value"));
    const Token& frame_token = take("the key's frame");
    const std::int64_t frame = integer(frame_token, "frame");
    if (previous_frame && frame <= *previous_frame)
      fail_at(frame_token.offset, fmt::format("a frame after {} (strictly increasing)", *previous_frame),
              shown(frame_token.text));
    previous_frame = frame;
    const Token& linear_token = take("the linear flag");
    const std::int64_t linear = integer(linear_token, "linear flag");
    if (linear != 0 && linear != 1) fail_at(linear_token.offset, "a linear flag of 0 or 1", shown(linear_token.text));
    Key key;
    key.time = static_cast<double>(frame);
    key.linear_flag = static_cast<int>(linear);
    // v1 mapping (format note): a key with the linear flag is a Linear key, else TCB.
    key.shape = linear ? kLinear : kTcb;
    for (int i = 0; i < 3; ++i) key.params[i] = number(take("tension, continuity and bias"), "tension/continuity/bias");
    for (std::size_t c = 0; c < file.channels.size(); ++c) {
      key.value = values[c];
      file.channels[c].keys.push_back(key);
    }
    warn_tcb(file, key, 0, static_cast<std::size_t>(k));
  }
}

// ---- version 3: keyword lines ----
class V3Parser {
 public:
  V3Parser(LwFile& file, const std::vector<Line>& lines, std::size_t first, std::uint64_t end_offset)
      : file_(file), lines_(lines), next_(first), end_offset_(end_offset) {}

  void parse() {
    const Line& header = next_line("NumChannels <n>");
    if (header.tokens[0].text != "NumChannels" || header.tokens.size() != 2)
      fail_at(header.offset, "'NumChannels <n>'", shown(header.tokens[0].text));
    const std::int64_t channel_count = integer(header.tokens[1], "NumChannels");
    if (channel_count < 1) fail_at(header.tokens[1].offset, "NumChannels of at least 1", shown(header.tokens[1].text));
    if (static_cast<std::uint64_t>(channel_count) > lines_.size())
      fail_at(header.tokens[1].offset, "a channel count the file can hold", shown(header.tokens[1].text));
    for (std::int64_t i = 0; i < channel_count; ++i) parse_channel(static_cast<int>(i));
    for (; next_ < lines_.size(); ++next_)
      if (!lines_[next_].tokens.empty())
        fail_at(lines_[next_].offset, "only whitespace after the last channel", shown(lines_[next_].tokens[0].text));
  }

 private:
  const Line& next_line(std::string_view what) {
    while (next_ < lines_.size() && lines_[next_].tokens.empty()) ++next_;
    if (next_ >= lines_.size()) fail_at(end_offset_, std::string(what), "the end of the file");
    return lines_[next_++];
  }

  void parse_channel(int index) {
    const Line& header = next_line(fmt::format("'Channel {}'", index));
    if (header.tokens[0].text != "Channel" || header.tokens.size() != 2 ||
        integer(header.tokens[1], "channel number") != index)
      fail_at(header.offset, fmt::format("'Channel {}'", index), shown(header.tokens[0].text));
    const Line& open = next_line("'{ Envelope'");
    const bool opens = (open.tokens.size() == 2 && open.tokens[0].text == "{" && open.tokens[1].text == "Envelope") ||
                       (open.tokens.size() == 1 && open.tokens[0].text == "{Envelope");
    if (!opens) fail_at(open.offset, "'{ Envelope'", shown(open.tokens[0].text));
    const Line& count_line = next_line("the number of keys");
    const std::int64_t key_count = integer(count_line.tokens[0], "number of keys");
    if (key_count < 1 || count_line.tokens.size() != 1)
      fail_at(count_line.offset, "a key count of at least 1, alone on its line", shown(count_line.tokens[0].text));
    if (static_cast<std::uint64_t>(key_count) > lines_.size())
      fail_at(count_line.offset, "a key count the file can hold", shown(count_line.tokens[0].text));

    Channel channel;
    channel.index = index;
    charge_parse_memory(static_cast<std::uint64_t>(key_count), kBytesPerKey, count_line.offset, "keys");
    channel.keys.reserve(static_cast<std::size_t>(key_count));
    bool have_behaviors = false;
    while (true) {
      const Line& line = next_line("'}' closing the envelope");
      const std::string_view keyword = line.tokens[0].text;
      if (keyword == "Key") {
        if (have_behaviors || channel.keys.size() == static_cast<std::size_t>(key_count))
          fail_at(line.offset, fmt::format("{} Key lines, then Behaviors", key_count), "another Key line");
        channel.keys.push_back(parse_key(line, channel));
      } else if (keyword == "Behaviors") {
        if (channel.keys.size() != static_cast<std::size_t>(key_count))
          fail_at(line.offset, fmt::format("{} Key lines before Behaviors", key_count),
                  fmt::format("{}", channel.keys.size()));
        if (line.tokens.size() != 3) fail_at(line.offset, "'Behaviors <pre> <post>'", shown(keyword));
        channel.pre_behavior = behavior(line.tokens[1]);
        channel.post_behavior = behavior(line.tokens[2]);
        have_behaviors = true;
      } else if (keyword == "}") {
        if (!have_behaviors) fail_at(line.offset, "a Behaviors line before '}'", "'}'");
        break;
      } else {
        file_.warnings.push_back(fmt::format("channel {}: unknown line {} at offset 0x{:X} skipped", index,
                                             shown(keyword), line.offset));
      }
    }
    file_.channels.push_back(std::move(channel));
  }

  Key parse_key(const Line& line, const Channel& channel) {
    const std::size_t numbers = line.tokens.size() - 1;
    if (numbers < 3 || numbers > 9)
      fail_at(line.offset, "'Key <value> <time> <shape> <p1>..<p6>' (3 to 9 numbers)", fmt::format("{} numbers", numbers));
    if (numbers < 9)
      file_.warnings.push_back(fmt::format("channel {} key {}: {} numbers, padded with 0 to 9", channel.index,
                                           channel.keys.size(), numbers));
    Key key;
    key.value = number(line.tokens[1], "key value");
    key.time = number(line.tokens[2], "key time");
    const std::int64_t shape = integer(line.tokens[3], "shape");
    if (shape < 0 || shape > 5) fail_at(line.tokens[3].offset, "a shape from 0 to 5", shown(line.tokens[3].text));
    key.shape = static_cast<int>(shape);
    for (std::size_t i = 4; i < line.tokens.size(); ++i) key.params[i - 4] = number(line.tokens[i], "key parameter");
    if (!channel.keys.empty()) {
      const double previous = channel.keys.back().time;
      if (key.time < previous)
        fail_at(line.tokens[2].offset, fmt::format("a time at or after {} (non-decreasing)", previous),
                shown(line.tokens[2].text));
      if (key.time == previous)
        file_.warnings.push_back(fmt::format("channel {} key {}: same time as the key before", channel.index,
                                             channel.keys.size()));
    }
    if (key.shape == kTcb || key.shape == kHermite) warn_tcb(file_, key, channel.index, channel.keys.size());
    if (file_.kind == FileKind::motion && channel.index >= 3 && channel.index <= 5 &&
        std::fabs(key.value) > 2 * std::numbers::pi * 16)
      file_.warnings.push_back(fmt::format("channel {} key {}: rotation {} looks like degrees (v3 uses radians)",
                                           channel.index, channel.keys.size(), key.value));
    return key;
  }

  static int behavior(const Token& token) {
    const std::int64_t value = integer(token, "behaviour");
    if (value < 0 || value > 5) fail_at(token.offset, "a behaviour from 0 to 5", shown(token.text));
    return static_cast<int>(value);
  }

  LwFile& file_;
  const std::vector<Line>& lines_;
  std::size_t next_;
  std::uint64_t end_offset_;
};

std::string_view as_text(std::span<const std::byte> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

LwFile parse_checked(std::span<const std::byte> bytes) {
  const std::string_view text = as_text(bytes);
  const auto lines = split_lines(text);
  std::vector<Token> tokens;
  for (const auto& line : lines) tokens.insert(tokens.end(), line.tokens.begin(), line.tokens.end());
  if (tokens.empty() || (tokens[0].text != "LWMO" && tokens[0].text != "LWEN"))
    fail_at(0, "the magic LWMO or LWEN", tokens.empty() ? "an empty file" : shown(tokens[0].text));
  LwFile file;
  file.kind = tokens[0].text == "LWMO" ? FileKind::motion : FileKind::envelope;
  if (tokens.size() < 2) fail_at(text.size(), "a version number", "the end of the file");
  const std::int64_t version = integer(tokens[1], "version");
  if (version != 1 && version != 3)
    fail_at(tokens[1].offset, "version 1 or 3 (the versions animdex reads)", fmt::format("unsupported version {}", version));
  file.version = static_cast<int>(version);
  if (version == 1) {
    parse_v1(file, tokens, text.size());
  } else {
    std::size_t version_line = 0;  // the line holding the version token
    while (lines[version_line].tokens.empty() || lines[version_line].tokens.back().offset < tokens[1].offset)
      ++version_line;
    if (lines[version_line].tokens.back().offset != tokens[1].offset)
      fail_at(lines[version_line].tokens.back().offset, "the end of the line after the version",
              shown(lines[version_line].tokens.back().text));
    const std::size_t first = version_line + 1;
    V3Parser(file, lines, first, text.size()).parse();
  }
  return file;
}

KuperFile parse_kuper_checked(std::span<const std::byte> bytes) {
  const auto lines = split_lines(as_text(bytes));
  std::size_t next = 0;
  while (next < lines.size() && lines[next].tokens.empty()) ++next;
  if (next == lines.size() || lines[next].tokens[0].text.substr(0, 4) != "Axes")
    fail_at(0, "a Kuper header 'Axes = <name>, <name>, ...'", next == lines.size() ? "an empty file" : "other text");
  // The header's names: everything after '=' split on commas.
  const Line& header = lines[next++];
  const std::string_view text = as_text(bytes);
  const std::size_t line_end = std::min(text.find('\n', header.offset), text.size());
  const std::string_view header_text = text.substr(header.offset, line_end - header.offset);
  const std::size_t equals = header_text.find('=');
  if (equals == std::string_view::npos) fail_at(header.offset, "'=' after 'Axes'", "no '='");
  KuperFile kuper;
  std::string_view rest = header_text.substr(equals + 1);
  while (true) {
    const std::size_t comma = rest.find(',');
    std::string_view name = rest.substr(0, comma);
    while (!name.empty() && is_space(name.front())) name.remove_prefix(1);
    while (!name.empty() && is_space(name.back())) name.remove_suffix(1);
    if (name.empty()) fail_at(header.offset + equals + 1, "a non-empty axis name between commas", "an empty name");
    // Axis names become channel names, which the model keeps to printable ASCII.
    const bool printable = std::all_of(name.begin(), name.end(), [](char c) { return c >= 0x20 && c <= 0x7E; });
    if (!printable || name.size() > 64)
      fail_at(header.offset + equals + 1, "an axis name of at most 64 printable ASCII characters",
              fmt::format("{} bytes{}", name.size(), printable ? "" : " with other characters"));
    charge_parse_memory(1, sizeof(std::string) + sizeof(model::BoneTrack), header.offset + equals + 1, "axes");
    kuper.axes.emplace_back(name);
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  for (; next < lines.size(); ++next) {
    const Line& line = lines[next];
    if (line.tokens.empty()) continue;
    if (line.tokens.size() != kuper.axes.size())
      fail_at(line.offset, fmt::format("{} numbers (one per axis) on frame line {}", kuper.axes.size(), line.number),
              fmt::format("{}", line.tokens.size()));
    charge_parse_memory(line.tokens.size(), sizeof(double) + model::kBytesPerKey, line.offset, "frame values");
    std::vector<double> values;
    for (const auto& token : line.tokens) values.push_back(number(token, "axis value"));
    kuper.frames.push_back(std::move(values));
  }
  if (kuper.frames.empty()) fail_at(text.size(), "at least one frame line after the header", "the end of the file");
  return kuper;
}

}  // namespace

Result<LwFile> parse_lw(std::span<const std::byte> bytes) {
  return catch_parse_failure<LwFile>([&] { return parse_checked(bytes); });
}

Result<KuperFile> parse_kuper(std::span<const std::byte> bytes) {
  return catch_parse_failure<KuperFile>([&] { return parse_kuper_checked(bytes); });
}

}  // namespace animdex::lightwave
