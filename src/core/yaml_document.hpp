// The one YAML document of an input's text, read so that no text can hang the reader.
#pragma once

#include <string>

#include <yaml-cpp/yaml.h>

namespace kmini {

// The document of `text` (a null node when it holds none). Throws InputError at
// origin:line:column for malformed YAML, for a second document, and for a ',' that no flow
// collection holds.
YAML::Node load_one_document(const std::string& text, const std::string& origin);

}  // namespace kmini
