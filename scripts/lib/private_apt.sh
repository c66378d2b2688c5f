# shellcheck shell=bash
# Sourced by setup.sh and check_kokkos_compat.sh: apt-get and apt-cache with package lists,
# sources and a download cache of their own under one folder, so that fetching Kokkos' source or
# a newer release's headers leaves the machine's apt state alone.
#
#   private_apt_init DIR    creates DIR/parts (put *.sources or *.list entries there), DIR/lists
#                           and DIR/cache, and sets the array private_apt_opts for apt-get and
#                           apt-cache: apt-get "${private_apt_opts[@]}" update
private_apt_init() {
  local dir=$1
  mkdir -p "$dir/parts" "$dir/lists/partial" "$dir/cache/archives/partial"
  # shellcheck disable=SC2034  # for the caller
  private_apt_opts=(
    -o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$dir/parts"
    -o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache"
    -o "APT::Sandbox::User=root" -o "Acquire::Languages=none"
  )
}
