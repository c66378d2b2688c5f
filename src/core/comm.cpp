#include "core/comm.hpp"

#include <algorithm>
#include <numeric>

#include "core/error.hpp"

namespace kmini {

namespace {

bool mpi_running() {
  int initialized = 0;
  int finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized != 0 && finalized == 0;
}

void check(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw RuntimeFailure(std::string("MPI ") + what + " failed: " + std::string(text, length));
}

}  // namespace

Comm Comm::world() {
  return Comm(mpi_running() ? MPI_COMM_WORLD : MPI_COMM_NULL);
}

Comm::Comm(MPI_Comm handle) : handle_(handle) {
  if (handle_ == MPI_COMM_NULL) return;
  MPI_Comm_rank(handle_, &rank_);
  MPI_Comm_size(handle_, &size_);
}

void Comm::barrier() const {
  if (size_ > 1) check(MPI_Barrier(handle_), "barrier");
}

double Comm::allreduce(double value, MPI_Op op) const {
  if (size_ == 1) return value;
  double out = 0.0;
  check(MPI_Allreduce(&value, &out, 1, MPI_DOUBLE, op, handle_), "allreduce");
  return out;
}

double Comm::max(double value) const {
  return allreduce(value, MPI_MAX);
}
double Comm::min(double value) const {
  return allreduce(value, MPI_MIN);
}
double Comm::sum(double value) const {
  return allreduce(value, MPI_SUM);
}

void Comm::sum_in_place(double* values, std::size_t count) const {
  if (size_ == 1) return;
  // MPI counts are ints: large arrays go in pieces.
  constexpr std::size_t kPiece = std::size_t{1} << 30;
  for (std::size_t begin = 0; begin < count; begin += kPiece) {
    const int n = static_cast<int>(std::min(kPiece, count - begin));
    check(MPI_Allreduce(MPI_IN_PLACE, values + begin, n, MPI_DOUBLE, MPI_SUM, handle_),
          "allreduce");
  }
}

bool Comm::all(bool value) const {
  if (size_ == 1) return value;
  int mine = value ? 1 : 0;
  int out = 0;
  check(MPI_Allreduce(&mine, &out, 1, MPI_INT, MPI_LAND, handle_), "allreduce");
  return out != 0;
}

std::vector<std::string> Comm::all_gather(const std::string& value) const {
  if (size_ == 1) return {value};
  int length = static_cast<int>(value.size());
  std::vector<int> lengths(size_);
  check(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, handle_), "allgather");
  std::vector<int> offsets(size_, 0);
  std::partial_sum(lengths.begin(), lengths.end() - 1, offsets.begin() + 1);
  std::string joined(static_cast<std::size_t>(offsets.back() + lengths.back()), '\0');
  check(MPI_Allgatherv(value.data(), length, MPI_CHAR, joined.data(), lengths.data(),
                       offsets.data(), MPI_CHAR, handle_),
        "allgatherv");
  std::vector<std::string> out;
  for (int r = 0; r < size_; ++r)
    out.push_back(joined.substr(offsets[r], lengths[r]));
  return out;
}

std::string Comm::broadcast(const std::string& value) const {
  if (size_ == 1) return value;
  int length = static_cast<int>(value.size());
  check(MPI_Bcast(&length, 1, MPI_INT, 0, handle_), "broadcast");
  std::string out = is_root() ? value : std::string(static_cast<std::size_t>(length), '\0');
  check(MPI_Bcast(out.data(), length, MPI_CHAR, 0, handle_), "broadcast");
  return out;
}

}  // namespace kmini
