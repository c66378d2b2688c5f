# Sourced by the scripts and tests that run kmini's Python figures: plot_python prints the first
# of $PYTHON, python3 and /usr/bin/python3 that imports matplotlib and PyYAML, or fails. A pyenv
# python3 first on PATH may lack them while Debian's python3-matplotlib sits in /usr/bin/python3.
plot_python() {
  local candidate
  for candidate in "${PYTHON:-}" python3 /usr/bin/python3; do
    if [ -n "$candidate" ] && "$candidate" -c "import matplotlib, yaml" 2>/dev/null; then
      command -v "$candidate"
      return 0
    fi
  done
  return 1
}
