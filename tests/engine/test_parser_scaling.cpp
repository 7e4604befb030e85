// The parsers stay linear in the size of their input: reading an input 8 times longer must take
// about 8 times as long, not 64 (a quadratic step, e.g. a duplicate check by scanning, would).
// Measured as the thread's CPU time (not wall time, which other processes stretch), the best of
// three runs, and judged by the ratio with a generous margin: < 24 passes (8 is linear, 9-10 is
// n log n), so a loaded machine does not fail it and a quadratic blow-up (64) does. The sizes are
// large enough for a quadratic step to dominate: the model builder's former joint lookup by
// scanning (a few ns per name) overtakes the ~10 us per link of parsing at a few thousand links.
#include <time.h>

#include <QtTest>
#include <algorithm>
#include <functional>
#include <sstream>
#include <string>

#include "dynscope/dynscope.hpp"
#include "dynscope/io/trajectory_csv.hpp"

namespace {

double cpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// Best of three CPU times of f(n).
double bestTime(const std::function<void(int)>& f, int n) {
  double best = 1e300;
  for (int k = 0; k < 3; ++k) {
    const double t0 = cpuSeconds();
    f(n);
    best = std::min(best, cpuSeconds() - t0);
  }
  return best;
}

// Fails when f(8n) takes more than 24 times f(n); prints the figures.
void checkLinear(const char* what, int n, const std::function<void(int)>& f) {
  f(n / 4);  // warm up (page faults of the first large allocations)
  const double small = bestTime(f, n), large = bestTime(f, 8 * n);
  const double ratio = large / std::max(small, 1e-6);
  qInfo("%s: n = %d: %.1f ms, 8n: %.1f ms, ratio %.1f (linear 8, quadratic 64)", what, n, 1e3 * small, 1e3 * large,
        ratio);
  QVERIFY2(ratio < 24, qPrintable(QString("%1 grows faster than linearly: ratio %2").arg(what).arg(ratio)));
}

// A chain of n links (every third joint fixed); `actuated`: every joint carries the actuator marker;
// `massless`: no link has an <inertial> (one massless moving subtree, the model check's case).
std::string urdfChain(int n, bool actuated = false, bool massless = false) {
  std::ostringstream s;
  s << "<robot name=\"chain\" xmlns:dynscope=\"https://dynscope.org\">\n<link name=\"l0\"/>\n";
  for (int i = 1; i <= n; ++i) {
    s << "<link name=\"l" << i << "\">";
    if (!massless)
      s << "<inertial><origin xyz=\"0 0 0.05\"/><mass value=\"1\"/>"
        << "<inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/></inertial>";
    s << "<visual><geometry><cylinder radius=\"0.01\" length=\"0.1\"/></geometry></visual></link>\n"
      << "<joint name=\"j" << i << "\" type=\"" << (i % 3 ? "revolute" : "fixed") << "\"><parent link=\"l" << i - 1
      << "\"/><child link=\"l" << i << "\"/><origin xyz=\"0 0 0.1\" rpy=\"0.1 0 0\"/><axis xyz=\"0 1 0\"/>"
      << "<limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/>" << (actuated ? "<dynscope:actuated/>" : "")
      << "</joint>\n";
  }
  s << "</robot>\n";
  return s.str();
}

// `actuated`: an `actuated` line naming every joint, one per joint.
std::string dhTable(int n, bool actuated = false) {
  std::ostringstream s;
  s << "name long_arm\nangles deg\n";
  for (int i = 1; i <= n; ++i)
    s << "joint j" << i << (i % 2 ? " R" : " P") << " a=0.1 alpha=90 d=0.05 lower=-1 upper=1 mass=1 com=0,0,0.01"
      << " inertia=0.01,0.01,0.01\n";
  for (int i = 1; actuated && i <= n; ++i) s << "actuated j" << i << "\n";
  return s.str();
}

// A 6-joint model's trajectory with n rows.
std::string csvRows(int n) {
  std::ostringstream s;
  s << "t,j1,j2,j3,j4,j5,j6\n";
  for (int k = 0; k < n; ++k) s << k * 0.01 << ',' << 0.1 * std::sin(k * 0.01) << ",0.2,0.3,0.4,0.5,0.6\n";
  return s.str();
}

// A model with n joints, and a trajectory with one column per joint (+ t) and 3 rows.
std::string csvColumns(int n) {
  std::ostringstream s;
  s << "t";
  for (int i = 1; i <= n; ++i) s << ",j" << i;
  s << '\n';
  for (int k = 0; k < 3; ++k) {
    s << k;
    for (int i = 1; i <= n; ++i) s << ",0.1";
    s << '\n';
  }
  return s.str();
}

}  // namespace

class TestParserScaling : public QObject {
  Q_OBJECT

 private slots:
  void urdfIsLinear() {
    checkLinear("URDF parse + build", 4000, [](int n) {
      const std::string text = urdfChain(n);
      const dyn::Model m = dyn::buildModel(dyn::parseUrdfString(text, "chain.urdf"));
      QCOMPARE(m.N, n - n / 3);
    });
  }

  // Actuator markers on every joint (the loop builder matched each body's joint by scanning them all).
  void actuatedMarkersAreLinear() {
    checkLinear("URDF with actuator markers", 2000, [](int n) {
      const dyn::Model m = dyn::buildModel(dyn::parseUrdfString(urdfChain(n, true), "chain.urdf"));
      QVERIFY(m.passiveDofs.empty());
    });
    checkLinear("DH with actuated lines", 2000, [](int n) {
      const dyn::Model m = dyn::buildModel(dyn::parseDhString(dhTable(n, true), "long.dh"));
      QVERIFY(m.passiveDofs.empty());
    });
  }

  // A long massless chain: the model check names the subtree (an ancestor walk per body was quadratic).
  void masslessChainCheckIsLinear() {
    checkLinear("model check of a massless chain", 2000, [](int n) {
      const dyn::RobotDescription d = dyn::parseUrdfString(urdfChain(n, false, true), "chain.urdf");
      const dyn::Model m = dyn::buildModel(d);
      const std::vector<dyn::Finding> f = dyn::checkModel(m, &d);
      QVERIFY(std::any_of(f.begin(), f.end(), [](const dyn::Finding& x) { return x.code == "mass.massless_subtree"; }));
    });
  }

  // A very long chain parses (no recursion deep enough to overflow the stack).
  void longChainLoads() {
    const dyn::Model m = dyn::buildModel(dyn::parseUrdfString(urdfChain(30000), "chain.urdf"));
    QCOMPARE(m.N, 20000);
    QCOMPARE(m.parent[m.N], m.N - 1);
  }

  void dhIsLinear() {
    checkLinear("DH parse + build", 2000, [](int n) {
      const dyn::Model m = dyn::buildModel(dyn::parseDhString(dhTable(n), "long.dh"));
      QCOMPARE(m.nv, n);
    });
  }

  void csvRowsAreLinear() {
    const dyn::Model m = dyn::buildModel(dyn::parseDhString(dhTable(6), "six.dh"));
    checkLinear("trajectory CSV rows", 4000, [&](int n) {
      std::istringstream in(csvRows(n));
      QCOMPARE(dyn::readTrajectoryCsv(m, in, "rows.csv").trajectory.samples(), n);
    });
  }

  void csvColumnsAreLinear() {
    checkLinear("trajectory CSV columns (n joints)", 1000, [](int n) {
      const dyn::Model m = dyn::buildModel(dyn::parseDhString(dhTable(n), "long.dh"));
      std::istringstream in(csvColumns(n));
      QCOMPARE(int(dyn::readTrajectoryCsv(m, in, "wide.csv").trajectory.q.rows()), n);
    });
  }
};

QTEST_APPLESS_MAIN(TestParserScaling)
#include "test_parser_scaling.moc"
