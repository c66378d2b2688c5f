// The checked parameter values of one run point, as an app sees them.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <typeindex>
#include <typeinfo>
#include <vector>

#include "core/param.hpp"
#include "core/source_mark.hpp"
#include "core/variant.hpp"

namespace kmini {

// One parameter's value with where it came from.
struct Setting {
  Value value;
  SourceMark mark;     // where the user set it; the run's own position for defaults
  bool given = false;  // set by the input or --set rather than defaulted
};

class Params {
 public:
  Params() = default;
  // `key_path` prefixes keys in error messages: "runs[2]" for the third run of a suite.
  // `variants` is the app's table, which the `variant` setting selects from.
  Params(std::string app, std::string key_path, std::map<std::string, Setting> settings,
         const std::vector<VariantSpec>* variants = nullptr);

  const std::string& app() const { return app_; }

  bool boolean(const std::string& name) const;
  std::int64_t integer(const std::string& name) const;
  double real(const std::string& name) const;
  const std::string& string(const std::string& name) const;  // string, choice and path
  const std::vector<std::int64_t>& integers(const std::string& name) const;
  const std::vector<double>& reals(const std::string& name) const;
  const std::vector<std::string>& strings(const std::string& name) const;
  const RealMatrix& matrix(const std::string& name) const;

  // The variants this point runs, and whether any of them has what `wanted` asks of it: an
  // app sizes its memory by the selected variants' traits, never by their names.
  std::vector<const VariantSpec*> selected_variants() const;
  template <class Predicate>
  bool selects_any(Predicate wanted) const {
    for (const VariantSpec* v : selected_variants())
      if (wanted(*v)) return true;
    return false;
  }

  // The point's setup as `parse` reads it from these parameters (the files they name too), read
  // once: the input check, the memory estimate, the dry run and the case share it, as do the
  // copies of this point. Host data only: it may be read before Kokkos starts.
  template <class Setup, class Parse>
  const Setup& parsed(Parse parse) const {
    std::shared_ptr<const void>& slot = (*setups_)[std::type_index(typeid(Setup))];
    if (!slot) slot = std::make_shared<const Setup>(parse(*this));
    return *static_cast<const Setup*>(slot.get());
  }

  bool has(const std::string& name) const;    // a value is set (defaults count)
  bool given(const std::string& name) const;  // the user set it
  const Value& value(const std::string& name) const;
  const SourceMark& mark(const std::string& name) const;
  const std::map<std::string, Setting>& settings() const { return settings_; }

  // "runs[2].elements", or "elements" for a single-run file.
  std::string key_path(const std::string& name) const;

  // For an app's cross-parameter checks: throws InputError naming where `name` was set.
  [[noreturn]] void reject(const std::string& name, const std::string& message) const;

 private:
  const Setting& setting(const std::string& name) const;
  template <class T>
  const T& get(const std::string& name) const;

  std::string app_;
  std::string key_path_;
  std::map<std::string, Setting> settings_;
  const std::vector<VariantSpec>* variants_ = nullptr;
  std::shared_ptr<std::map<std::type_index, std::shared_ptr<const void>>> setups_ =
      std::make_shared<std::map<std::type_index, std::shared_ptr<const void>>>();
};

}  // namespace kmini
