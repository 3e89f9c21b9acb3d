#pragma once
// A small team of threads, each on a CPU of its own, for work that meets at a barrier often:
// multi_start's rounds of restarts (solvers/multi_start.cpp), about 0.4 ms of work between
// meetings at the worked example.
//
// Why not an OpenMP parallel region. On this 2-core virtual machine a thread that libgomp
// creates starts on its creator's core and waits there 0.4-4 ms for the scheduler to move it
// (90 us when created for the other core; the runtime cannot be told so without
// OMP_PROC_BIND in the environment before the program starts), and the two threads of a team
// often shared one core afterwards. The worked example's default solve on two threads took
// 16-30 ms (whole process, quiet) and 32-144 ms with another process holding a core, against
// 22 ms on one thread; with OMP_PROC_BIND=true, 13.5-14.5 ms quiet and 22.6-29.1 ms loaded.
// docs/reference/solvers.md, "Threads", has the measurements of this team.
//
// run(body) calls body(slot) once on each of `size` threads, slot 0 on the calling thread, the
// others on threads created for the call and joined before it returns; inside body, barrier()
// waits until every slot has reached it, spinning for up to kSpinMicroseconds and then
// sleeping. OpenMP regions inside body run on one thread, as they would nested in a region.
//
// Pinning: slot k runs on the k-th CPU of the caller's affinity mask (the caller's own CPU
// first) while body runs, then the caller gets its mask back. When the user leaves placement to
// the OpenMP runtime (OMP_PROC_BIND, OMP_PLACES or GOMP_CPU_AFFINITY set), slot k runs on the
// runtime's k-th place instead, and on no particular CPU with OMP_PROC_BIND=false. The team
// is never larger than the CPUs it may use (the places, or the caller's mask): a thread
// without a CPU of its own would make the others spin at every barrier. Nothing is pinned
// off Linux.
#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <vector>

namespace geomsim {

class ThreadTeam {
 public:
  static constexpr int kSpinMicroseconds = 1000;

  explicit ThreadTeam(int size);  // size >= 1
  int size() const { return size_; }

  // body(slot) for slot in [0, size()) at once; body must not throw (it is the caller's to
  // catch). size() may be below the size asked for: the CPUs above, or a thread the system
  // would not create (body then runs once per slot of the smaller team).
  void run(const std::function<void(int)>& body);

  // Inside body: returns once every slot of the team has called it (the same number of times).
  void barrier();

 private:
  int size_;
  std::vector<std::vector<int>> slot_cpus_;  // slot k's CPUs; empty: nothing pinned
  std::vector<int> own_;                     // the caller's mask, as CPU numbers
  std::atomic<int> arrived_{0};
  std::atomic<unsigned> generation_{0};
  std::mutex mutex_;
  std::condition_variable passed_;
};

}  // namespace geomsim
