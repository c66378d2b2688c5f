// A `choice` parameter read as an enum. The words a user may write and the values they stand for
// are one checked table, so that an app compares enums, where a misspelt value does not compile,
// and the default is written once, in the parameter's spec.
#pragma once

#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/param.hpp"
#include "core/params.hpp"

namespace kmini {

template <class Enum>
class Choice {
 public:
  struct Word {
    const char* word;
    Enum value;
  };

  // A word or a value twice is a programming error: std::logic_error.
  Choice(std::string name, std::initializer_list<Word> words)
      : name_(std::move(name)), words_(words) {
    for (std::size_t i = 0; i < words_.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (std::string(words_[i].word) == words_[j].word || words_[i].value == words_[j].value)
          throw std::logic_error("choice '" + name_ + "': '" + words_[i].word + "' repeats '" +
                                 words_[j].word + "'");
  }

  const std::string& name() const { return name_; }

  // The parameter: these words, `default_value`'s word when the input gives none.
  ParamSpec param(Enum default_value, std::string doc) const {
    return ParamSpec::choice(name_, word(default_value), words(), std::move(doc));
  }

  // The value at a point, whose word the input check has already found in the table.
  Enum of(const Params& params) const {
    const std::string& given = params.string(name_);
    if (const std::optional<Enum> value = find(given)) return *value;
    throw std::logic_error("choice '" + name_ + "': unchecked word '" + given + "'");
  }

  std::optional<Enum> find(const std::string& word) const {
    for (const Word& w : words_)
      if (word == w.word) return w.value;
    return std::nullopt;
  }

  const char* word(Enum value) const {
    for (const Word& w : words_)
      if (w.value == value) return w.word;
    throw std::logic_error("choice '" + name_ + "': a value without a word");
  }

  std::vector<std::string> words() const {
    std::vector<std::string> out;
    for (const Word& w : words_)
      out.emplace_back(w.word);
    return out;
  }

 private:
  std::string name_;
  std::vector<Word> words_;
};

}  // namespace kmini
