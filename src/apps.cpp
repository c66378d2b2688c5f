#include "apps.hpp"

#include "bridge/bridge_app.hpp"
#include "hf/hf_app.hpp"
#include "himeno/himeno_app.hpp"
#include "histogram/histogram_app.hpp"
#include "reduce/reduce_app.hpp"
#include "stream/stream_app.hpp"

namespace kmini {

std::vector<AppSpec> registered_apps() {
  return {stream::app_spec(), histogram::app_spec(), reduce::app_spec(),
          himeno::app_spec(), bridge::app_spec(),    hf::app_spec()};
}

}  // namespace kmini
