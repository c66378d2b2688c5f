// An app's variants, declared once as a table: each row a name, a one-line doc, the byte model's
// weight, typed traits and the one action that runs it. The core derives `kmini list`, the
// `variant` parameter, selection, "not applicable" where a host backend is missing, and the
// report's rows from the table; an app reads a variant's traits and action, never its name.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kmini {

// The parameter every app has that selects its variants, and the word in it for every variant.
inline constexpr const char* kVariantKey = "variant";
inline constexpr const char* kAllVariants = "all";

// The device's memory-bandwidth ceilings, measured at the start of a run (core/ceiling.hpp):
// every bandwidth is quoted against one of them.
enum class Ceiling { copy, read };

// "copy", "read": as reports and tables name a ceiling.
const char* ceiling_name(Ceiling ceiling);

// Where a variant's data live and its kernels run.
enum class Side { device, host };

// A host backend a variant needs beside the default execution space. A build without it reports
// the variant not applicable, never silently runs another.
enum class HostBackend { none, serial, openmp };

struct VariantTraits {
  Side side = Side::device;
  HostBackend backend = HostBackend::none;
  bool baseline = false;      // speed-ups are quoted against it
  bool meta = false;          // picks among the app's other variants at run time (auto)
  bool needs_buffer = false;  // stages results in a buffer the app sizes (its memory counts it)
  // The ceiling it measures, where its app probes them (AppSpec::probe).
  std::optional<Ceiling> probes;

  // So that a table row reads as words: on_host().needing(HostBackend::serial).as_baseline().
  constexpr VariantTraits needing(HostBackend needed) const {
    return with(&VariantTraits::backend, needed);
  }
  constexpr VariantTraits as_baseline() const { return with(&VariantTraits::baseline, true); }
  constexpr VariantTraits as_meta() const { return with(&VariantTraits::meta, true); }
  constexpr VariantTraits with_buffer() const { return with(&VariantTraits::needs_buffer, true); }
  constexpr VariantTraits probing(Ceiling ceiling) const {
    return with(&VariantTraits::probes, std::optional<Ceiling>(ceiling));
  }

 private:
  template <class Field>
  constexpr VariantTraits with(Field VariantTraits::*field, Field value) const {
    VariantTraits t = *this;
    t.*field = value;
    return t;
  }
};

constexpr VariantTraits on_device() {
  return VariantTraits{};
}
constexpr VariantTraits on_host() {
  VariantTraits t;
  t.side = Side::host;
  return t;
}

// One row of an app's table as the core sees it: everything but the action.
struct VariantSpec {
  std::string name;
  std::string doc;
  // Bytes moved per repetition are weight x the app's byte unit (BabelStream's "weight": the
  // arrays read or written once per element). 0 where no byte model applies.
  double weight = 0.0;
  VariantTraits traits;
  // Position in the app's table, so that a Case finds the row's action.
  std::size_t index = 0;
};

// The variants that `names` selects from `variants`: by name, or all of them, in table order,
// for "all"; each once, in the order first named.
std::vector<const VariantSpec*> select_variants(const std::vector<VariantSpec>& variants,
                                                const std::vector<std::string>& names);

template <class Action>
struct VariantRow {
  const char* name;
  const char* doc;
  double weight;
  VariantTraits traits;
  Action action;
};

// An app's table. `Action` is whatever runs a variant: a function, a member function of the
// app's Case, a solver factory.
template <class Action>
class VariantTable {
 public:
  VariantTable(std::initializer_list<VariantRow<Action>> rows) : rows_(rows) {}
  // Rows made from another table's (an app whose variants wrap a table of its parts).
  explicit VariantTable(std::vector<VariantRow<Action>> rows) : rows_(std::move(rows)) {}

  // The rows as AppSpec::variants holds them.
  std::vector<VariantSpec> specs() const {
    std::vector<VariantSpec> out;
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      const VariantRow<Action>& row = rows_[i];
      out.push_back(VariantSpec{row.name, row.doc, row.weight, row.traits, i});
    }
    return out;
  }

  const Action& action(const VariantSpec& variant) const { return rows_.at(variant.index).action; }
  const std::vector<VariantRow<Action>>& rows() const { return rows_; }

 private:
  std::vector<VariantRow<Action>> rows_;
};

}  // namespace kmini
