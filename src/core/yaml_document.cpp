#include "core/yaml_document.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

#include <yaml-cpp/eventhandler.h>

// yaml-cpp 0.7 stops deep nests with DeepRecursion; older versions have no such guard.
#if __has_include(<yaml-cpp/depthguard.h>)
#include <yaml-cpp/depthguard.h>
#define KMINI_YAML_HAS_DEPTH_GUARD 1
#else
#define KMINI_YAML_HAS_DEPTH_GUARD 0
#endif

#include "core/error.hpp"
#include "core/source_mark.hpp"

namespace kmini {

namespace {

// Where each document the parser hands back starts; nothing else is kept.
class DocumentStarts : public YAML::EventHandler {
 public:
  YAML::Mark start;
  void OnDocumentStart(const YAML::Mark& mark) override { start = mark; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

SourceMark at(const std::string& origin, const YAML::Mark& mark) {
  return SourceMark{origin, mark.line + 1, mark.column + 1};
}

// yaml-cpp takes a plain key of over 1024 characters for a value, and stops at its ':' with
// "illegal map value". Such a key is none of kmini's: the length of the one on the mark's line,
// or 0 where the line holds no such key.
std::size_t overlong_key(const std::string& text, const YAML::Mark& mark) {
  std::istringstream lines(text);
  std::string line;
  for (int i = 0; i <= mark.line && std::getline(lines, line); ++i) {
  }
  if (mark.column < 0 || static_cast<std::size_t>(mark.column) > line.size()) return 0;
  const std::string before = line.substr(0, static_cast<std::size_t>(mark.column));
  const std::size_t first = before.find_first_not_of(" -");
  if (first == std::string::npos || before.find(':') != std::string::npos) return 0;
  const std::size_t length = before.size() - first;
  return length > 1024 ? length : 0;
}

}  // namespace

// yaml-cpp 0.7's LoadAll never returns on a ',' where a document or a block node ends (a file
// that is ',' alone, or '- a' then ','): its parser hands back an empty document there without
// consuming the ',', again and again, and LoadAll keeps them all, about 0.5 GB a second. So the
// documents are counted through the parser, at most three, and a document that starts where
// the last one did is that ','.
YAML::Node load_one_document(const std::string& text, const std::string& origin) {
  // yaml-cpp reads a NUL byte as another character (a backspace in a plain scalar, or an escape
  // it names as nothing): found first, by its own line and column.
  if (const std::size_t nul = text.find('\0'); nul != std::string::npos) {
    const std::size_t line_start = text.rfind('\n', nul);
    const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + nul, '\n'));
    const int column =
        static_cast<int>(nul - (line_start == std::string::npos ? 0 : line_start + 1)) + 1;
    throw InputError(SourceMark{origin, line, column}.str() +
                     ": a NUL byte (0x00), which YAML text never holds (a binary file?)");
  }
  try {
    std::istringstream stream(text);
    YAML::Parser parser(stream);
    std::vector<YAML::Mark> starts;
    DocumentStarts handler;
    while (starts.size() < 3 && parser.HandleNextDocument(handler)) {
      if (!starts.empty() && handler.start.pos == starts.back().pos) {
        throw InputError(at(origin, handler.start).str() +
                         ": malformed YAML: a ',' outside a flow collection ([...] or {...})");
      }
      starts.push_back(handler.start);
    }
    if (starts.size() > 1) {
      throw InputError(at(origin, starts[1]).str() +
                       ": the input holds more than one YAML document; expected one");
    }
    return YAML::Load(text);
  }
#if KMINI_YAML_HAS_DEPTH_GUARD
  catch (const YAML::DeepRecursion& e) {
    // yaml-cpp says only "bad file", at the end of the nest.
    throw InputError(at(origin, e.mark).str() + ": lists or mappings nested " +
                     std::to_string(e.depth()) +
                     " deep, past the YAML reader's limit; an input needs a few levels");
  }
#endif
  catch (const YAML::Exception& e) {
    if (const std::size_t length = overlong_key(text, e.mark); length > 0) {
      throw InputError(SourceMark{origin, e.mark.line + 1, 1}.str() + ": a key of " +
                       std::to_string(length) +
                       " characters: unknown key (YAML reads keys of at most 1024, and no key "
                       "of kmini's is near that long)");
    }
    throw InputError(at(origin, e.mark).str() + ": malformed YAML: " + e.msg);
  }
}

}  // namespace kmini
