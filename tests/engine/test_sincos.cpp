// dyn::sinCos (the fast double path used by every revolute jcalc) agrees with libm to about
// an ulp over the joint range and beyond, keeps sin^2 + cos^2 = 1, and falls back for huge/NaN.
#include <QtTest>

#include <cmath>
#include <limits>
#include <random>

#include "dynscope/spatial/sincos.hpp"

class TestSinCos : public QObject {
  Q_OBJECT
 private slots:
  void matchesLibm_data() {
    QTest::addColumn<double>("range");
    QTest::newRow("joint range") << 4.0;
    QTest::newRow("many turns") << 1000.0;
    QTest::newRow("near the fallback") << 9.9e4;
  }
  void matchesLibm() {
    QFETCH(double, range);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> U(-range, range);
    double worst = 0;  // in units of the spacing of doubles at 1 (2.2e-16)
    for (int i = 0; i < 200000; ++i) {
      const double x = U(rng);
      double s, c;
      dyn::sinCos(x, s, c);
      const double eps = std::numeric_limits<double>::epsilon();
      worst = std::max({worst, std::abs(s - std::sin(x)) / eps, std::abs(c - std::cos(x)) / eps});
      QVERIFY(std::abs(s * s + c * c - 1) < 4 * eps);
    }
    qDebug("worst difference from libm: %.2f eps", worst);
    QVERIFY2(worst <= 2.0, qPrintable(QString("worst %1 eps").arg(worst)));
  }
  void exactPoints() {
    double s, c;
    dyn::sinCos(0.0, s, c);
    QCOMPARE(s, 0.0);
    QCOMPARE(c, 1.0);
    dyn::sinCos(M_PI / 2, s, c);
    QVERIFY(std::abs(s - 1) < 1e-16 && std::abs(c) < 1e-16);
    dyn::sinCos(-M_PI, s, c);
    QVERIFY(std::abs(s) < 1e-15 && std::abs(c + 1) < 1e-16);
  }
  void fallsBackOutsideTheRange() {
    double s, c;
    dyn::sinCos(1e9, s, c);
    QCOMPARE(s, std::sin(1e9));
    QCOMPARE(c, std::cos(1e9));
    dyn::sinCos(std::numeric_limits<double>::quiet_NaN(), s, c);
    QVERIFY(std::isnan(s) && std::isnan(c));
    dyn::sinCos(std::numeric_limits<double>::infinity(), s, c);
    QVERIFY(std::isnan(s) && std::isnan(c));
  }
};

QTEST_APPLESS_MAIN(TestSinCos)
#include "test_sincos.moc"
