#define EIGEN_RUNTIME_NO_MALLOC  // must precede every include: Eigen's malloc guard (set_is_malloc_allowed)
// Proves the algorithms do not allocate once Data is built, two independent ways:
//  1. Eigen's runtime guard: with EIGEN_RUNTIME_NO_MALLOC, Eigen's aligned_malloc/realloc check
//     set_is_malloc_allowed(). The check is an eigen_assert, compiled out by -DNDEBUG, so this file
//     routes eigen_assert to a recorder (below) that works in Release and lets the test report it.
//  2. Counting replacements of every global operator new/delete (plain, array, nothrow, aligned,
//     sized): std::vector, std::string, ... go through them. While the guard is armed the first
//     allocation's backtrace (<execinfo.h>) is captured and printed on failure.
// Note Eigen heap memory comes from std::malloc, not operator new, so the two checks complement
// each other. Each is shown to work: an allocation inside the guarded region must be detected.
namespace noalloc_eigen {
void assertFailed(const char* expr, const char* file, int line);
}
#define eigen_assert(x) \
  do { if (!static_cast<bool>(x)) ::noalloc_eigen::assertFailed(#x, __FILE__, __LINE__); } while (false)

#include <execinfo.h>
#include <unistd.h>

#include <QtTest>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <new>
#include <random>
#include <string>
#include <vector>

#include "dynscope/dynscope.hpp"
#include "random_tree.hpp"

// ---- Counting global operator new/delete ----------------------------------------------------
namespace noalloc {
std::atomic<long> news{0}, deletes{0};
bool armed = false;         // inside a guarded region
bool haveTrace = false;     // a backtrace of the first allocation in the region was captured
void* trace[64];
int traceDepth = 0;
size_t traceSize = 0;

inline void noteNew(size_t n) {
  news.fetch_add(1, std::memory_order_relaxed);
  if (armed && !haveTrace) {
    haveTrace = true;
    traceSize = n;
    traceDepth = backtrace(trace, 64);  // warmed up in initTestCase, so it does not allocate here
  }
}
void* allocate(size_t n) {
  noteNew(n);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* allocateNothrow(size_t n) noexcept {
  noteNew(n);
  return std::malloc(n ? n : 1);
}
void* allocateAligned(size_t n, std::align_val_t al) {
  noteNew(n);
  const size_t a = std::max(sizeof(void*), static_cast<size_t>(al));
  void* p = nullptr;
  if (posix_memalign(&p, a, n ? n : 1) != 0) throw std::bad_alloc();
  return p;
}
void* allocateAlignedNothrow(size_t n, std::align_val_t al) noexcept {
  noteNew(n);
  const size_t a = std::max(sizeof(void*), static_cast<size_t>(al));
  void* p = nullptr;
  return posix_memalign(&p, a, n ? n : 1) == 0 ? p : nullptr;
}
void release(void* p) noexcept {
  if (!p) return;
  deletes.fetch_add(1, std::memory_order_relaxed);
  std::free(p);
}
}  // namespace noalloc

void* operator new(size_t n) { return noalloc::allocate(n); }
void* operator new[](size_t n) { return noalloc::allocate(n); }
void* operator new(size_t n, const std::nothrow_t&) noexcept { return noalloc::allocateNothrow(n); }
void* operator new[](size_t n, const std::nothrow_t&) noexcept { return noalloc::allocateNothrow(n); }
void* operator new(size_t n, std::align_val_t a) { return noalloc::allocateAligned(n, a); }
void* operator new[](size_t n, std::align_val_t a) { return noalloc::allocateAligned(n, a); }
void* operator new(size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return noalloc::allocateAlignedNothrow(n, a);
}
void* operator new[](size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return noalloc::allocateAlignedNothrow(n, a);
}
void operator delete(void* p) noexcept { noalloc::release(p); }
void operator delete[](void* p) noexcept { noalloc::release(p); }
void operator delete(void* p, size_t) noexcept { noalloc::release(p); }
void operator delete[](void* p, size_t) noexcept { noalloc::release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { noalloc::release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { noalloc::release(p); }
void operator delete(void* p, std::align_val_t) noexcept { noalloc::release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { noalloc::release(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { noalloc::release(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { noalloc::release(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { noalloc::release(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { noalloc::release(p); }

// ---- eigen_assert recorder ----------------------------------------------------------------------
namespace noalloc_eigen {
int failures = 0;
char first[512] = "";
void assertFailed(const char* expr, const char* file, int line) {
  if (failures++ == 0) std::snprintf(first, sizeof first, "%s:%d: eigen_assert(%s)", file, line, expr);
}
}  // namespace noalloc_eigen

namespace {

// The outcome of one guarded region.
struct Guard {
  long news = 0, deletes = 0;
  int eigenFailures = 0;
  QString where;  // description of the first offence, with a backtrace
  bool clean() const { return news == 0 && deletes == 0 && eigenFailures == 0; }
};

// Runs f with operator new counted and Eigen's malloc forbidden. Nothing in here allocates
// itself: the arm/disarm are plain stores; QtTest is only used afterwards.
template <class F> Guard guarded(F&& f) {
  noalloc::haveTrace = false;
  const int e0 = noalloc_eigen::failures;
  const long n0 = noalloc::news.load(), d0 = noalloc::deletes.load();
  Eigen::internal::set_is_malloc_allowed(false);
  noalloc::armed = true;
  f();
  noalloc::armed = false;
  Eigen::internal::set_is_malloc_allowed(true);
  Guard g;
  g.news = noalloc::news.load() - n0;
  g.deletes = noalloc::deletes.load() - d0;
  g.eigenFailures = noalloc_eigen::failures - e0;
  if (g.eigenFailures) g.where += QString("Eigen: %1\n").arg(noalloc_eigen::first);
  if (noalloc::haveTrace) {
    g.where += QString("operator new(%1) from:\n").arg(noalloc::traceSize);
    char** names = backtrace_symbols(noalloc::trace, noalloc::traceDepth);
    for (int k = 1; k < noalloc::traceDepth && names; ++k) g.where += QString("  %1\n").arg(names[k]);
    std::free(names);
  }
  return g;
}

// Fails the test naming the call when the region allocated.
#define CHECK_NO_ALLOC(what, ...)                                                                             \
  do {                                                                                                        \
    const Guard g_ = guarded([&] { __VA_ARGS__; });                                                           \
    if (!g_.clean())                                                                                          \
      QFAIL(qPrintable(QString("%1 allocated: %2 new, %3 delete, %4 Eigen malloc/assert\n%5")                 \
                           .arg(what).arg(g_.news).arg(g_.deletes).arg(g_.eigenFailures).arg(g_.where)));     \
  } while (false)

void* volatile keep = nullptr;

std::string robotPath(const char* file) { return std::string(DYNSCOPE_ROBOTS_DIR) + "/" + file; }

// Every algorithm of the engine on model m: all inputs preallocated Eigen::VectorXd.
void runAll(const dyn::Model& model) {
  dyn::Data data(model);
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> U(-1, 1);
  const Eigen::VectorXd q = dyn::randomConfiguration(model, rng);
  Eigen::VectorXd qd(model.nv), qdd(model.nv), tau(model.nv), dv(model.nv), qout(model.nq), vout(model.nv);
  for (int k = 0; k < model.nv; ++k) {
    qd[k] = U(rng);
    qdd[k] = U(rng);
    tau[k] = U(rng);
    dv[k] = 0.1 * U(rng);
  }
  std::vector<dyn::Force<double>> fext(model.N + 1);
  for (auto& f : fext) f = dyn::Force<double>(Eigen::Vector3d(U(rng), U(rng), U(rng)), Eigen::Vector3d(U(rng), U(rng), U(rng)));
  const int frame = int(model.frames.size()) - 1;
  QVERIFY(frame >= 0);
  double sink = 0;  // keeps the results observable
  // M and L are allocated on first use (data.hpp); reserve them up front, as the simulator does.
  data.reserveFactor();

  CHECK_NO_ALLOC("forwardKinematics(q)", dyn::forwardKinematics(model, data, q));
  CHECK_NO_ALLOC("forwardKinematics(q, qd)", dyn::forwardKinematics(model, data, q, qd));
  CHECK_NO_ALLOC("updateFrames", dyn::updateFrames(model, data));
  CHECK_NO_ALLOC("rnea", sink += dyn::rnea(model, data, q, qd, qdd)[0]);
  CHECK_NO_ALLOC("rnea(fext)", sink += dyn::rnea(model, data, q, qd, qdd, &fext)[0]);
  CHECK_NO_ALLOC("nonLinearEffects", sink += dyn::nonLinearEffects(model, data, q, qd)[0]);
  CHECK_NO_ALLOC("gravityVector", sink += dyn::gravityVector(model, data, q)[0]);
  CHECK_NO_ALLOC("crba", sink += dyn::crba(model, data, q)(0, 0));
  CHECK_NO_ALLOC("aba", sink += dyn::aba(model, data, q, qd, tau)[0]);
  CHECK_NO_ALLOC("aba(fext)", sink += dyn::aba(model, data, q, qd, tau, &fext)[0]);
  CHECK_NO_ALLOC("forwardDynamicsCrba", sink += dyn::forwardDynamicsCrba(model, data, q, qd, tau)[0]);
  CHECK_NO_ALLOC("forwardDynamicsCrba(fext)", sink += dyn::forwardDynamicsCrba(model, data, q, qd, tau, &fext)[0]);
  for (auto ref : {dyn::ReferenceFrame::Local, dyn::ReferenceFrame::World, dyn::ReferenceFrame::LocalWorldAligned})
    CHECK_NO_ALLOC("frameJacobian", sink += dyn::frameJacobian(model, data, q, frame, ref)(0, 0));
  CHECK_NO_ALLOC("velocityProductAcceleration", dyn::velocityProductAcceleration(model, data, q, qd));
  CHECK_NO_ALLOC("velocityProductAcceleration(gravity)", dyn::velocityProductAcceleration(model, data, q, qd, true));
  CHECK_NO_ALLOC("frameVelocityProduct", sink += dyn::frameVelocityProduct(model, data, frame).w[0]);
  CHECK_NO_ALLOC("computeEnergy", dyn::computeEnergy(model, data, q, qd); sink += data.kinetic);
  CHECK_NO_ALLOC("centerOfMass", sink += dyn::centerOfMass(model, data)[0]);
  CHECK_NO_ALLOC("integrate", dyn::integrate(model, q, dv, 0.1, qout));
  CHECK_NO_ALLOC("difference", dyn::difference(model, q, qout, vout));
  QVERIFY(std::isfinite(sink));
  // the results are meaningful, not the output of a short-circuited call
  QVERIFY((vout - 0.1 * dv).cwiseAbs().maxCoeff() < 1e-9);
}

}  // namespace

class TestNoAllocation : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    void* buf[4];
    backtrace(buf, 4);  // the first call loads libgcc (allocates); do it outside any guarded region
  }

  // The guard can fail: an allocation inside the region is detected by each mechanism.
  void counterDetectsAllocation() {
    // (the pointers escape through a volatile so the optimiser cannot elide the new/delete pairs)
    const Guard a = guarded([] {
      std::vector<int> v(100);  // operator new once
      keep = v.data();
      int* p = new int(3);      // and once more
      keep = p;
      delete p;
    });
    QCOMPARE(a.news, 2L);
    QCOMPARE(a.deletes, 2L);
    QVERIFY(a.where.contains("operator new"));
    // aligned and nothrow variants are counted as well
    const Guard b = guarded([] {
      struct alignas(64) Big { double x[8]; };
      Big* p = new Big;
      keep = p;
      delete p;
      int* r = new (std::nothrow) int[3];
      keep = r;
      delete[] r;
    });
    QCOMPARE(b.news, 2L);
    QCOMPARE(b.deletes, 2L);
    // a dynamic Eigen object: Eigen's own guard reports it (Eigen allocates with std::malloc)
    double sum = -1;
    const Guard c = guarded([&] {
      Eigen::VectorXd x(50);
      keep = x.data();
      x.setZero();
      sum = x.sum();
    });
    QCOMPARE(sum, 0.0);
    QVERIFY(c.eigenFailures > 0);
    QVERIFY(c.where.contains("malloc"));
    // an allocation on an engine code path: the size check's error message (std::string) when
    // rnea gets a wrong-sized qdd. The backtrace is recorded (frames of this executable show as
    // offsets without -rdynamic: resolve them with addr2line -e test_no_allocation, or use gdb).
    const dyn::Model model = dyn::buildModel(dyn::testing::randomTree(3, 4));
    dyn::Data data(model);
    const Eigen::VectorXd q = model.neutral(), v = Eigen::VectorXd::Zero(model.nv), bad = Eigen::VectorXd::Zero(model.nv + 1);
    bool threw = false;
    const Guard e = guarded([&] {
      try {
        dyn::rnea(model, data, q, v, bad);
      } catch (const std::invalid_argument&) {
        threw = true;
      }
    });
    QVERIFY(threw);
    QVERIFY(e.news > 0);
    QVERIFY2(e.where.contains("operator new(") && e.where.count('\n') > 3, qPrintable(e.where));
    // and a clean region is clean
    const Guard d = guarded([] {
      Eigen::Matrix<double, 6, 6> m = Eigen::Matrix<double, 6, 6>::Identity();
      m *= 2.0;
    });
    QVERIFY(d.clean());
  }

  void robots_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("floating");
    QTest::newRow("ur5") << "ur5.urdf" << false;
    QTest::newRow("panda") << "panda.urdf" << false;
    QTest::newRow("humanoid") << "humanoid.urdf" << false;
    QTest::newRow("quadruped floating") << "quadruped.urdf" << true;
    QTest::newRow("stanford_arm") << "stanford_arm.dh" << false;
    QTest::newRow("puma560") << "puma560.dh" << false;
  }
  void robots() {
    QFETCH(QString, file);
    QFETCH(bool, floating);
    const std::string path = robotPath(file.toStdString().c_str());
    if (!std::filesystem::exists(path)) QSKIP(qPrintable(QString("%1 not present yet").arg(file)));
    const dyn::Model model = dyn::loadModel(path, dyn::BuildOptions{.floatingBase = floating});
    runAll(model);
  }

  // The dense nv x nv matrices are allocated only by the algorithms that need them, once: a
  // workspace used for RNEA and ABA stays linear in the size of the model.
  void massMatrixAllocatedOnDemand() {
    const dyn::Model model = dyn::generalChain(200);
    dyn::Data data(model);
    QCOMPARE(data.M.size(), Eigen::Index(0));
    QCOMPARE(data.L.size(), Eigen::Index(0));
    const Eigen::VectorXd q = Eigen::VectorXd::Constant(model.nv, 0.3), v = Eigen::VectorXd::Constant(model.nv, 0.1);
    double sink = 0;
    CHECK_NO_ALLOC("rnea", sink += dyn::rnea(model, data, q, v, v)[0]);
    CHECK_NO_ALLOC("aba", sink += dyn::aba(model, data, q, v, v)[0]);
    QCOMPARE(data.M.size(), Eigen::Index(0));  // still nothing quadratic
    QCOMPARE(data.L.size(), Eigen::Index(0));
    // The first CRBA allocates M (one Eigen allocation) and nothing else; the second none.
    const Guard first = guarded([&] { sink += dyn::crba(model, data, q)(0, 0); });
    QVERIFY(first.eigenFailures > 0 && first.news == 0);
    QCOMPARE(data.M.rows(), Eigen::Index(model.nv));
    CHECK_NO_ALLOC("crba, second call", sink += dyn::crba(model, data, q)(0, 0));
    // The CRBA-based forward dynamics adds L once and agrees with ABA.
    Eigen::VectorXd qddAba = dyn::aba(model, data, q, v, v);
    const Eigen::VectorXd qddCrba = dyn::forwardDynamicsCrba(model, data, q, v, v);
    QCOMPARE(data.L.rows(), Eigen::Index(model.nv));
    QVERIFY2((qddAba - qddCrba).norm() <= 1e-6 * (1 + qddAba.norm()), "ABA and CRBA forward dynamics disagree");
    CHECK_NO_ALLOC("forwardDynamicsCrba, second call", sink += dyn::forwardDynamicsCrba(model, data, q, v, v)[0]);
    QVERIFY(std::isfinite(sink));
  }

  // Random trees with spherical, floating and planar joints (the multi-DOF ABA branch) mixed
  // with every single-DOF kind.
  void randomTrees() {
    using K = dyn::JointKind;
    for (unsigned seed = 1; seed <= 5; ++seed) {
      const dyn::Model model = dyn::buildModel(dyn::testing::randomTree(
          seed, 14, {K::Revolute, K::Prismatic, K::Helical, K::Fixed, K::Planar, K::Spherical, K::Floating}));
      bool multi = false;
      for (int i = 1; i <= model.N; ++i) multi |= model.joints[i].nv > 1;
      QVERIFY(multi);
      runAll(model);
      if (QTest::currentTestFailed()) return;
      // and with a floating base on top
      runAll(dyn::buildModel(dyn::testing::randomTree(seed, 10), dyn::BuildOptions{.floatingBase = true}));
      if (QTest::currentTestFailed()) return;
    }
  }
};

QTEST_APPLESS_MAIN(TestNoAllocation)
#include "test_no_allocation.moc"
