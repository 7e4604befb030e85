// UTF-8 checks for text that comes from files: names in a robot file become JSON keys, CSV
// headers and window titles, so a byte that is not UTF-8 (a Latin-1 file, a damaged one) must be
// refused where it is read, with the file and line, and never reach an output.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace dyn {

// Strict UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF. When the
// text is not valid, *badOffset (if given) receives the offset of the first offending byte.
bool isValidUtf8(std::string_view text, std::size_t* badOffset = nullptr);

// The text with every invalid byte sequence replaced by U+FFFD (the replacement character):
// safe to print, quote in a message or write into JSON.
std::string sanitizeUtf8(std::string_view text);

// `raw` as a JSON string literal, quotes included: escapes for ", \\ and control characters, invalid
// UTF-8 replaced first (a parser would reject the whole document). The CLI's JSON and the equations'.
std::string jsonString(std::string_view raw);

// "" when `text` is valid UTF-8, else a message for a load error, e.g.
// "link name 'caf\uFFFD' is not valid UTF-8 (byte 0xE9 at position 4); save the file as UTF-8".
std::string utf8Problem(std::string_view what, std::string_view text);

// "" when `bytes` look like a text file, else a message for a load error: a NUL or another control
// byte (other than tab, line feed, carriage return, form feed) in the first 64 KiB means a binary
// file (an executable, an archive, a mesh given as the model), e.g. "this is not a text file (byte
// 0x7F at position 1): robot files are text (URDF, MJCF, a DH table)"; UTF-16 is named as such.
std::string binaryFileProblem(std::string_view bytes);

}  // namespace dyn
