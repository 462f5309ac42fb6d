#include "core/terminal_text.h"

namespace animdex {

namespace {

// The length of the well-formed UTF-8 sequence at text[i] and its code point, or 0.
std::size_t utf8_sequence(std::string_view text, std::size_t i, char32_t& code_point) {
  const auto lead = static_cast<unsigned char>(text[i]);
  const std::size_t length = lead < 0x80 ? 1 : lead >= 0xC2 && lead <= 0xDF ? 2 : lead >= 0xE0 && lead <= 0xEF ? 3
                           : lead >= 0xF0 && lead <= 0xF4 ? 4 : 0;
  if (length == 0 || i + length > text.size()) return 0;
  code_point = length == 1 ? lead : lead & (0xFF >> (length + 1));
  for (std::size_t k = 1; k < length; ++k) {
    const auto next = static_cast<unsigned char>(text[i + k]);
    if ((next & 0xC0) != 0x80) return 0;
    code_point = (code_point << 6) | (next & 0x3F);
  }
  const char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code_point < smallest[length] || code_point > 0x10FFFF || (code_point >= 0xD800 && code_point <= 0xDFFF))
    return 0;
  return length;
}

// Controls (C0, DEL, C1) and the bidirectional overrides that can make a name read as another.
bool unsafe_on_terminal(char32_t c) {
  return c < 0x20 || (c >= 0x7F && c <= 0x9F) || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

}  // namespace

std::string terminal_safe(std::string_view text) {
  std::string safe;
  safe.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    char32_t code_point = 0;
    const std::size_t length = utf8_sequence(text, i, code_point);
    if (length == 0) {  // not UTF-8 (a raw 0x9B would be a CSI on some terminals)
      safe += '?';
      ++i;
      continue;
    }
    if (code_point == '\n' || code_point == '\r' || code_point == '\t') safe += ' ';
    else if (unsafe_on_terminal(code_point)) safe += '?';
    else safe.append(text.substr(i, length));
    i += length;
  }
  return safe;
}

}  // namespace animdex
