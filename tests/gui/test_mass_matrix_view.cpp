// The mass-matrix dock on the humanoid: cells equal an independent CRBA, follow the pose
// (coalesced), hover names the joints and their relation, clicks emit jointClicked, the status
// reports the pattern's sparsity, the factor views reproduce H and show (or not) fill-in, and
// PNG / CSV export. With DYNSCOPE_GRAB_DIR set, pictures of the dock for a human to judge.

#include <Eigen/Eigenvalues>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <memory>
#include <random>

#include "document/robot_document.hpp"
#include "dynscope/dynscope.hpp"
#include "file_size_limit.hpp"
#include "massmatrix/mass_matrix_dock.hpp"
#include "massmatrix/matrix_heat_map.hpp"

using Eigen::MatrixXd;
using Eigen::VectorXd;

class TestMassMatrixView : public QObject {
  Q_OBJECT

  std::unique_ptr<RobotDocument> m_doc;
  std::unique_ptr<MassMatrixDock> m_dock;

  const dyn::Model& model() const { return m_doc->model(); }
  int dofOf(const char* joint) const {
    const int b = model().jointIndex(joint);
    return b > 0 ? model().joints[b].idx_v : -1;
  }
  MatrixXd crbaNow() const {
    dyn::Data d(model());
    return dyn::crba(model(), d, m_doc->q());
  }
  MatrixXd shown() const { return m_dock->heatMap()->content().values; }
  // Back to H in model order, recomputed.
  void reset() {
    m_dock->setView(MassMatrixView::H);
    m_dock->setBreadthFirst(false);
    m_dock->setFactorForm(dyn::CholeskyForm::LTL);
    m_dock->setLogMagnitude(false);
    m_dock->recomputeNow();
  }

 private slots:
  void initTestCase() {
    m_doc = std::make_unique<RobotDocument>();
    QString error;
    QVERIFY2(m_doc->load(QDir(DYNSCOPE_ROBOTS_DIR).filePath("humanoid.urdf"), &error), qPrintable(error));
    QCOMPARE(model().nv, 32);
    std::mt19937 rng(4);
    m_doc->setQ(dyn::randomConfiguration(model(), rng, 1.0));
    m_dock = std::make_unique<MassMatrixDock>(m_doc.get());
    m_dock->resize(1100, 900);
    m_dock->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_dock.get()));
    QTRY_VERIFY(m_dock->recomputeCount() > 0);
  }
  void init() { reset(); }

  void cellsEqualIndependentCrba() {
    const MatrixXd H = crbaNow();
    QCOMPARE(shown().rows(), 32);
    QVERIFY((shown() - H).cwiseAbs().maxCoeff() <= 1e-12 * H.cwiseAbs().maxCoeff());
    // Hatched cells: exactly the pairs of joints on different branches (body-level ancestry).
    const auto& kinds = m_dock->heatMap()->content().kinds;
    for (int i = 0; i < 32; ++i)
      for (int j = 0; j < 32; ++j) {
        const int bi = model().dofBody[i], bj = model().dofBody[j];
        const bool related = model().isAncestor(bi, bj) || model().isAncestor(bj, bi);
        QCOMPARE(kinds[i * 32 + j] == CellKind::StructuralZero, !related);
      }
  }

  void poseChangesAreFollowedOnceAndLive() {
    const int before = m_dock->recomputeCount();
    const MatrixXd H0 = shown();
    VectorXd q = m_doc->q();
    for (int k = 0; k < 5; ++k) {  // a burst of moves in one event-loop turn: one recomputation
      q[dofOf("left_knee_joint")] += 0.2;
      q[dofOf("torso_pitch_joint")] -= 0.1;
      m_doc->setQ(q);
    }
    QCOMPARE(m_dock->recomputeCount(), before);  // nothing synchronous
    QTRY_COMPARE(m_dock->recomputeCount(), before + 1);
    QTest::qWait(20);
    QCOMPARE(m_dock->recomputeCount(), before + 1);
    const MatrixXd H = crbaNow();
    QVERIFY((shown() - H).cwiseAbs().maxCoeff() <= 1e-12 * H.cwiseAbs().maxCoeff());
    QVERIFY((shown() - H0).cwiseAbs().maxCoeff() > 1e-6);
  }

  // A hidden dock computes nothing; shown, it catches up with the current pose.
  void hiddenDockWaitsUntilShown() {
    MassMatrixDock hidden(m_doc.get());
    VectorXd q = m_doc->q();
    q[dofOf("head_yaw_joint")] += 0.3;
    m_doc->setQ(q);
    QTest::qWait(20);
    QCOMPARE(hidden.recomputeCount(), 0);
    hidden.show();
    QTRY_COMPARE(hidden.recomputeCount(), 1);
    const MatrixXd H = crbaNow();
    QVERIFY((hidden.heatMap()->content().values - H).cwiseAbs().maxCoeff() <= 1e-12 * H.cwiseAbs().maxCoeff());
  }

  void hoverNamesJointsValueAndRelation() {
    MatrixHeatMap* map = m_dock->heatMap();
    const int l = dofOf("left_hip_pitch_joint"), r = dofOf("right_knee_joint"), k = dofOf("left_knee_joint");
    QVERIFY(l >= 0 && r >= 0 && k >= 0);
    QTest::mouseMove(map, map->cellCenter(l, r));
    QTRY_COMPARE(map->hoverRow(), l);
    QString t = map->hoverText();
    QVERIFY2(t.contains("left_hip_pitch_joint") && t.contains("right_knee_joint"), qPrintable(t));
    QVERIFY2(t.contains("different branches") && t.contains("structural zero") && t.contains("= 0\n"), qPrintable(t));
    QCOMPARE(m_dock->readoutText(), t);
    // An ancestor pair: the hip is above the knee on the same leg; the value as computed by CRBA.
    QTest::mouseMove(map, map->cellCenter(k, l));
    QTRY_COMPARE(map->hoverRow(), k);
    t = map->hoverText();
    const double v = crbaNow()(k, l);
    QVERIFY(v != 0);
    QVERIFY2(t.contains(QString("= %1").arg(v, 0, 'g', 6)), qPrintable(t));
    QVERIFY2(t.contains("left_hip_pitch_joint is an ancestor of left_knee_joint"), qPrintable(t));
    QTest::mouseMove(map, map->cellCenter(k, k));
    QTRY_COMPARE(map->hoverColumn(), k);
    QVERIFY2(map->hoverText().contains("same joint"), qPrintable(map->hoverText()));
    QTest::mouseMove(map, map->cellCenter(k, MatrixHeatMap::kSideColumn));
    QTRY_COMPARE(map->hoverColumn(), int(MatrixHeatMap::kSideColumn));
    QVERIFY2(map->hoverText().contains(QString::number(crbaNow()(k, k), 'g', 6)), qPrintable(map->hoverText()));
  }

  void clickEmitsJointClicked() {
    MatrixHeatMap* map = m_dock->heatMap();
    QSignalSpy spy(m_dock.get(), &MassMatrixDock::jointClicked);
    const int r = dofOf("right_elbow_joint"), c = dofOf("head_yaw_joint");
    QTest::mouseClick(map, Qt::LeftButton, {}, map->cellCenter(r, c));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toInt(), r);
    // Under breadth-first numbering the row is a different position, the signal still a model dof.
    m_dock->setBreadthFirst(true);
    m_dock->recomputeNow();
    const std::vector<int>& order = m_dock->analysis().order;
    const int pos = int(std::find(order.begin(), order.end(), r) - order.begin());
    QVERIFY(pos != r);
    QTest::mouseClick(map, Qt::LeftButton, {}, map->cellCenter(pos, 0));
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy.at(1).at(0).toInt(), r);
  }

  void selectedBodyHighlightsItsRowsAndColumns() {
    const int body = model().jointIndex("left_knee_joint");
    m_doc->setSelectedBody(body);
    QCOMPARE(m_dock->heatMap()->highlighted(), std::vector<int>{dofOf("left_knee_joint")});
    m_doc->setSelectedBody(-1);
    QVERIFY(m_dock->heatMap()->highlighted().empty());
  }

  void statusReportsSparsityOfThePattern() {
    int related = 0;  // reference: pairs of dofs whose bodies are ancestor-related
    for (int i = 0; i < 32; ++i)
      for (int j = 0; j < 32; ++j) {
        const int bi = model().dofBody[i], bj = model().dofBody[j];
        related += model().isAncestor(bi, bj) || model().isAncestor(bj, bi);
      }
    const MassMatrixAnalysis& a = m_dock->analysis();
    QCOMPARE(a.structuralNonZeros, related);
    const double percent = 100.0 * (1024 - related) / 1024;
    QCOMPARE(a.sparsityPercent, percent);
    QVERIFY2(m_dock->statusText().contains(QString::number(percent, 'f', 1) + " %"), qPrintable(m_dock->statusText()));
    // Condition number from the spectrum, checked against a dense eigen solve.
    const Eigen::VectorXd ev = Eigen::SelfAdjointEigenSolver<MatrixXd>(crbaNow()).eigenvalues();
    QVERIFY(std::abs(a.conditionNumber / (ev[31] / ev[0]) - 1) < 1e-8);
  }

  void factorViewsAndFillIn() {
    const MatrixXd H = crbaNow();
    const double scale = H.cwiseAbs().maxCoeff();
    // Model order, L^T L: Featherstone's sparse factor, no fill.
    m_dock->setView(MassMatrixView::L);
    m_dock->recomputeNow();
    QVERIFY(m_dock->analysis().sparseAlgorithm);
    MatrixXd L = shown();
    QVERIFY((L.transpose() * L - H).cwiseAbs().maxCoeff() < 1e-12 * scale);
    QCOMPARE(m_dock->analysis().fillIn, 0);
    // Breadth-first is still parents-before-children: L^T L of P H P^T has no fill either.
    m_dock->setBreadthFirst(true);
    m_dock->recomputeNow();
    const std::vector<int> order = m_dock->analysis().order;
    QVERIFY(!std::is_sorted(order.begin(), order.end()));
    MatrixXd PHP(32, 32);
    for (int a = 0; a < 32; ++a)
      for (int b = 0; b < 32; ++b) PHP(a, b) = H(order[a], order[b]);
    L = shown();
    QVERIFY((L.transpose() * L - PHP).cwiseAbs().maxCoeff() < 1e-11 * scale);
    QCOMPARE(m_dock->analysis().fillIn, 0);
    // The textbook root-first Cholesky L L^T of P H P^T fills: the cells marked as fill are
    // structural zeros of P H P^T that L has made non-zero.
    m_dock->setFactorForm(dyn::CholeskyForm::LLT);
    m_dock->recomputeNow();
    L = shown();
    QVERIFY((L * L.transpose() - PHP).cwiseAbs().maxCoeff() < 1e-11 * scale);
    const int fill = m_dock->analysis().fillIn;
    QVERIFY(fill > 0);
    int marked = 0;
    double largest = 0;
    for (int a = 0; a < 32; ++a)
      for (int b = 0; b < 32; ++b)
        if (m_dock->analysis().kind(a, b) == CellKind::FillIn) {
          ++marked;
          const int i = order[a], j = order[b];
          QVERIFY(!(model().isAncestor(model().dofBody[i], model().dofBody[j]) ||
                    model().isAncestor(model().dofBody[j], model().dofBody[i])));
          largest = std::max(largest, std::abs(L(a, b)));
        }
    QCOMPARE(marked, fill);
    QVERIFY(largest > 1e-6 * L.cwiseAbs().maxCoeff());
    QVERIFY2(m_dock->statusText().contains(QString("fill-in %1").arg(fill)), qPrintable(m_dock->statusText()));
    MatrixHeatMap* map = m_dock->heatMap();
    for (int a = 0; a < 32; ++a)
      for (int b = 0; b < 32; ++b)
        if (m_dock->analysis().kind(a, b) == CellKind::FillIn) {
          QTest::mouseMove(map, map->cellCenter(a, b));
          QTRY_COMPARE(map->hoverRow(), a);
          QVERIFY2(map->hoverText().contains("fill-in"), qPrintable(map->hoverText()));
          return;
        }
  }

  void logMagnitudeScale() {
    MatrixHeatMap* map = m_dock->heatMap();
    const double vmax = map->scaleMax();
    QCOMPARE(vmax, crbaNow().cwiseAbs().maxCoeff());
    QCOMPARE(map->scalePosition(-0.5 * vmax), -0.5);
    m_dock->setLogMagnitude(true);
    // Four decades: 1e-2 of the maximum sits half-way, 1e-5 at zero.
    QVERIFY(std::abs(map->scalePosition(-1e-2 * vmax) + 0.5) < 1e-12);
    QCOMPARE(map->scalePosition(vmax), 1.0);
    QCOMPARE(map->scalePosition(1e-5 * vmax), 0.0);
    QVERIFY(MatrixHeatMap::divergingColor(1).red() > 150 && MatrixHeatMap::divergingColor(-1).blue() > 150);
  }

  void exportPngAndCsv() {
    QTemporaryDir dir;
    const QString png = dir.filePath("m.png"), csv = dir.filePath("m.csv");
    QString error;
    QVERIFY2(m_dock->exportPng(png, QSize(800, 700), 2, &error), qPrintable(error));
    const QImage img(png);
    QCOMPARE(img.size(), QSize(1600, 1400));
    int coloured = 0;
    for (int y = 0; y < img.height(); y += 7)
      for (int x = 0; x < img.width(); x += 7) {
        const QColor c = img.pixelColor(x, y);
        coloured += std::abs(c.red() - c.blue()) > 60;
      }
    QVERIFY(coloured > 100);

    m_dock->setBreadthFirst(true);  // the CSV is what is shown, in its numbering
    m_dock->recomputeNow();
    QVERIFY2(m_dock->exportCsv(csv, &error), qPrintable(error));
    QFile f(csv);
    QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 33);
    const QStringList header = lines[0].split(',');
    const MassMatrixAnalysis& a = m_dock->analysis();
    const MatrixXd H = crbaNow();
    for (int r = 0; r < 32; ++r) {
      QCOMPARE(header[r + 1], QString::fromStdString(model().jointNames[model().dofBody[a.order[r]]]));
      const QStringList cells = lines[r + 1].split(',');
      QCOMPARE(cells.size(), 33);
      QCOMPARE(cells[0], header[r + 1]);
      for (int c = 0; c < 32; ++c) QCOMPARE(cells[c + 1].toDouble(), H(a.order[r], a.order[c]));
    }
  }

  // Exports are atomic (QSaveFile): a write that fails (a file-size limit standing in for a full
  // disk) leaves the previous file byte for byte and says which file; a missing folder is named.
  void failedExportKeepsTheOldFile() {
    m_dock->recomputeNow();
    QCOMPARE(m_dock->analysis().nv, 32);  // a 32 x 32 CSV (~20 kB) and a large PNG: both over the limit
    QTemporaryDir dir;
    const QString csv = dir.filePath("m.csv"), png = dir.filePath("m.png");
    for (const QString& path : {csv, png}) {
      QFile f(path);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("the previous export\n");
    }
    QString csvError, pngError;
    bool csvWritten = true, pngWritten = true;
    dyn::testing::withFileSizeLimit(1024, [&] {
      csvWritten = m_dock->exportCsv(csv, &csvError);
      pngWritten = m_dock->exportPng(png, QSize(800, 700), 2, &pngError);
    });
    QVERIFY2(!csvWritten, qPrintable(csvError));
    QVERIFY2(!pngWritten, qPrintable(pngError));
    QVERIFY2(csvError.startsWith("Cannot write " + csv), qPrintable(csvError));
    QVERIFY2(pngError.startsWith("Cannot write " + png), qPrintable(pngError));
    for (const QString& path : {csv, png}) {
      QFile f(path);
      QVERIFY(f.open(QIODevice::ReadOnly));
      QCOMPARE(f.readAll(), QByteArray("the previous export\n"));
    }
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 2);  // no temporary left behind
    QString error;
    QVERIFY(!m_dock->exportCsv(dir.filePath("no/such/folder/m.csv"), &error));
    QVERIFY2(error.contains("no/such/folder/m.csv"), qPrintable(error));
  }

  // Above kExactSpectrumDofs the condition number comes from dyn::massMatrixSpectrum (RNEA and ABA
  // applying H and its inverse): it agrees with the eigen solver on a 300-dof chain, where both run.
  void spectrumEstimateAgreesWithTheEigenSolver() {
    const dyn::Model chain = dyn::generalChain(300);
    dyn::Data d(chain);
    std::mt19937 rng(5);
    const VectorXd q = dyn::randomConfiguration(chain, rng);
    const Eigen::SelfAdjointEigenSolver<MatrixXd> eig(dyn::crba(chain, d, q), Eigen::EigenvaluesOnly);
    const MassMatrixAnalysis a = analyseMassMatrix(chain, d, q, MassMatrixSettings{});
    QVERIFY(a.spectrumEstimated);
    QVERIFY2(std::abs(a.eigenMax / eig.eigenvalues()[299] - 1) < 1e-3,
             qPrintable(QString::number(a.eigenMax / eig.eigenvalues()[299])));
    QVERIFY2(std::abs(a.eigenMin / eig.eigenvalues()[0] - 1) < 1e-3,
             qPrintable(QString::number(a.eigenMin / eig.eigenvalues()[0])));
    QVERIFY(std::abs(a.conditionNumber / (eig.eigenvalues()[299] / eig.eigenvalues()[0]) - 1) < 2e-3);
  }

  // The analysis on its own: a floating base (a 6-dof joint, named per component) in every
  // setting, and a joint that moves no mass (singular H): no factor, a clear error, no crash.
  void analysisOfFloatingAndSingularModels() {
    const dyn::Model fb =
        dyn::loadModel(QDir(DYNSCOPE_ROBOTS_DIR).filePath("humanoid.urdf").toStdString(), {.floatingBase = true});
    dyn::Data d(fb);
    std::mt19937 rng(2);
    const VectorXd q = dyn::randomConfiguration(fb, rng);
    dyn::Data ref(fb);
    const MatrixXd H = dyn::crba(fb, ref, q);
    for (bool bf : {false, true})
      for (MassMatrixView view : {MassMatrixView::H, MassMatrixView::L})
        for (dyn::CholeskyForm form : {dyn::CholeskyForm::LTL, dyn::CholeskyForm::LLT}) {
          const MassMatrixAnalysis a = analyseMassMatrix(fb, d, q, {view, bf, form});
          QCOMPARE(a.nv, 38);
          QVERIFY(std::any_of(a.dofNames.begin(), a.dofNames.end(),
                              [](const std::string& n) { return n.ends_with("[5]"); }));
          MatrixXd P(38, 38);
          for (int r = 0; r < 38; ++r)
            for (int c = 0; c < 38; ++c) P(r, c) = H(a.order[r], a.order[c]);
          const MatrixXd& V = a.values;
          const MatrixXd back = view == MassMatrixView::H        ? V
                                : form == dyn::CholeskyForm::LTL ? MatrixXd(V.transpose() * V)
                                                                 : MatrixXd(V * V.transpose());
          QVERIFY((back - P).cwiseAbs().maxCoeff() < 1e-10 * P.cwiseAbs().maxCoeff());
        }
    // A massless leaf on a revolute joint: H has a zero row and column.
    dyn::RobotDescription r;
    r.name = r.sourceFile = "massless";
    for (const char* n : {"base", "arm", "tip"}) {
      dyn::LinkDesc l;
      l.name = n;
      if (std::string(n) == "arm") {
        dyn::InertialDesc in;
        in.mass = 1;
        in.ixx = in.iyy = in.izz = 0.1;
        l.inertial = in;
      }
      r.links.push_back(l);
    }
    for (const char* c : {"arm", "tip"}) {
      dyn::JointDesc j;
      j.name = std::string(c) + "_joint";
      j.kind = dyn::JointKind::Continuous;
      j.parent = std::string(c) == "arm" ? "base" : "arm";
      j.child = c;
      j.axis = Eigen::Vector3d::UnitZ();
      r.joints.push_back(j);
    }
    const dyn::Model m = dyn::buildModel(r);
    dyn::Data dm(m);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             analyseMassMatrix(m, dm, m.neutral(), {MassMatrixView::L, false, dyn::CholeskyForm::LLT}));
    // The sparse L^T L in model order refuses at the zero pivot, naming the joint (no NaN factor).
    try {
      analyseMassMatrix(m, dm, m.neutral(), {MassMatrixView::L, false, dyn::CholeskyForm::LTL});
      QFAIL("factorised a singular H");
    } catch (const dyn::ForwardDynamicsError& e) {
      QCOMPARE(e.body(), m.jointIndex("tip_joint"));
      QVERIFY2(std::string(e.what()).find("joint 'tip_joint' (link 'tip') is 0, not positive") != std::string::npos,
               e.what());
    }
    const MassMatrixAnalysis h = analyseMassMatrix(m, dm, m.neutral(), {});
    QVERIFY(std::isinf(h.conditionNumber) || h.conditionNumber > 1e12);
  }

  // For a human: the dock as a lecture would show it.
  void grabPictures() {
    const QString dir = qEnvironmentVariable("DYNSCOPE_GRAB_DIR");
    if (dir.isEmpty()) QSKIP("set DYNSCOPE_GRAB_DIR to keep pictures of the dock");
    QDir().mkpath(dir);
    m_doc->setSelectedBody(model().jointIndex("left_knee_joint"));
    QTest::mouseMove(m_dock->heatMap(),
                     m_dock->heatMap()->cellCenter(dofOf("left_hip_pitch_joint"), dofOf("right_knee_joint")));
    QTest::qWait(50);
    QVERIFY(m_dock->grab().save(dir + "/mass_matrix_H.png"));
    m_dock->setLogMagnitude(true);
    QTest::qWait(20);
    QVERIFY(m_dock->grab().save(dir + "/mass_matrix_H_log.png"));
    m_dock->setLogMagnitude(false);
    m_dock->setView(MassMatrixView::L);
    m_dock->setBreadthFirst(true);
    m_dock->setFactorForm(dyn::CholeskyForm::LLT);
    m_dock->recomputeNow();
    QTest::qWait(20);
    QVERIFY(m_dock->grab().save(dir + "/mass_matrix_L_fill.png"));
    m_dock->resize(520, 480);
    QTest::qWait(50);
    QVERIFY(m_dock->grab().save(dir + "/mass_matrix_small.png"));
    m_dock->resize(1100, 900);
    m_doc->setSelectedBody(-1);
  }
};

QTEST_MAIN(TestMassMatrixView)
#include "test_mass_matrix_view.moc"
