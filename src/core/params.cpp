#include "core/params.hpp"

#include <stdexcept>

#include "core/error.hpp"

namespace kmini {

Params::Params(std::string app, std::string key_path, std::map<std::string, Setting> settings,
               const std::vector<VariantSpec>* variants)
    : app_(std::move(app)),
      key_path_(std::move(key_path)),
      settings_(std::move(settings)),
      variants_(variants) {}

std::vector<const VariantSpec*> Params::selected_variants() const {
  if (variants_ == nullptr) return {};
  return select_variants(*variants_, strings(kVariantKey));
}

const Setting& Params::setting(const std::string& name) const {
  const auto found = settings_.find(name);
  // Asking for a parameter the app never declared is a programming error, not bad input.
  if (found == settings_.end()) {
    throw std::logic_error("app " + app_ + " asked for undeclared parameter '" + name + "'");
  }
  return found->second;
}

template <class T>
const T& Params::get(const std::string& name) const {
  const Value& v = setting(name).value;
  if (const T* typed = std::get_if<T>(&v)) return *typed;
  throw std::logic_error("app " + app_ + " read parameter '" + name +
                         "' with the wrong type (value: " + format_value(v) + ")");
}

bool Params::boolean(const std::string& name) const {
  return get<bool>(name);
}
std::int64_t Params::integer(const std::string& name) const {
  return get<std::int64_t>(name);
}
double Params::real(const std::string& name) const {
  return get<double>(name);
}
const std::string& Params::string(const std::string& name) const {
  return get<std::string>(name);
}
const std::vector<std::int64_t>& Params::integers(const std::string& name) const {
  return get<std::vector<std::int64_t>>(name);
}
const std::vector<double>& Params::reals(const std::string& name) const {
  return get<std::vector<double>>(name);
}
const std::vector<std::string>& Params::strings(const std::string& name) const {
  return get<std::vector<std::string>>(name);
}
const RealMatrix& Params::matrix(const std::string& name) const {
  return get<RealMatrix>(name);
}

bool Params::has(const std::string& name) const {
  const auto found = settings_.find(name);
  return found != settings_.end() && !std::holds_alternative<std::monostate>(found->second.value);
}

bool Params::given(const std::string& name) const {
  return setting(name).given;
}
const Value& Params::value(const std::string& name) const {
  return setting(name).value;
}
const SourceMark& Params::mark(const std::string& name) const {
  return setting(name).mark;
}

std::string Params::key_path(const std::string& name) const {
  return key_path_.empty() ? name : key_path_ + "." + name;
}

void Params::reject(const std::string& name, const std::string& message) const {
  throw InputError(mark(name).str() + ": " + key_path(name) + ": " + message);
}

}  // namespace kmini
