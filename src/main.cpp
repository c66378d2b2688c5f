// kmini: command line -> session -> apps -> report. The work is in src/core/driver.cpp.
#include "apps.hpp"
#include "core/driver.hpp"

int main(int argc, char** argv) {
  const kmini::AppRegistry registry(kmini::registered_apps());
  return kmini::kmini_main(argc, argv, registry);
}
