#include "lecture/equations_document.hpp"

#include <QFile>
#include <QFileInfo>
#include <QMetaObject>
#include <QPointer>

#include "document/robot_document.hpp"

EquationsDocument::EquationsDocument(RobotDocument* robot, QObject* parent) : QObject(parent), m_robot(robot) {
  if (!available())
    m_state = State::Unavailable,
    m_message =
        tr("This build has no computer algebra (GiNaC was not found when it was configured): install it "
           "(apt-get install libginac-dev, or scripts/setup) and rebuild.");
  connect(robot, &RobotDocument::modelChanged, this, &EquationsDocument::onModelChanged);
  connect(robot, &RobotDocument::dhTableChanged, this, &EquationsDocument::onModelChanged);
  onModelChanged();
}

EquationsDocument::~EquationsDocument() {
  cancel();
  join();
}

bool EquationsDocument::available() {
#if DYNSCOPE_HAS_SYMBOLIC
  return true;
#else
  return false;
#endif
}

void EquationsDocument::join() {
  if (m_worker.joinable()) m_worker.join();
}

void EquationsDocument::setState(State state, const QString& message) {
  m_state = state;
  m_message = message;
  emit stateChanged();
}

void EquationsDocument::onModelChanged() {
  // A new robot: whatever was derived or is being derived is for the old one.
  cancel();
  ++m_generation;
  m_report.reset();
  // Symbolic parameters by default for a DH robot (the table's l_i, d_i: a textbook's), the robot's
  // numbers otherwise (a URDF's symbols are many: p_i, c_i, I_i of every link).
  m_parameters =
      m_robot->dhTable() && symbolicPossible() ? dyn::EquationParameters::Symbolic : dyn::EquationParameters::Numeric;
  if (m_state != State::Unavailable) setState(State::Empty);
}

bool EquationsDocument::symbolicPossible() const { return symbolicImpossibleReason().isEmpty(); }

QString EquationsDocument::symbolicImpossibleReason() const {
  const dyn::DhTable* t = m_robot->dhTable();
  if (!t) return {};  // the model's own: masses, centres of mass, inertias, joint origins
  if (t->convention != dyn::DhConvention::Standard) return tr("the DH table is in the modified convention");
  if (t->base || t->tool) return tr("the DH table has a base or tool line");
  if (!t->loops.empty()) return tr("the DH table has closed loops");
  return {};
}

void EquationsDocument::setParameters(dyn::EquationParameters parameters) {
  if (parameters == m_parameters) return;
  cancel();
  ++m_generation;
  m_parameters = parameters;
  m_report.reset();
  if (m_state != State::Unavailable) setState(State::Empty);
}

dyn::EquationsEstimate EquationsDocument::estimate() const {
#if DYNSCOPE_HAS_SYMBOLIC
  if (m_robot->hasModel()) return dyn::estimateEquations(m_robot->model(), m_parameters);
#endif
  return {};
}

void EquationsDocument::cancel() {
  if (m_cancel) m_cancel->store(true);
}

void EquationsDocument::compute() {
  if (m_state == State::Unavailable || m_state == State::Computing || !m_robot->hasModel()) return;
#if DYNSCOPE_HAS_SYMBOLIC
  if (const dyn::EquationsEstimate e = estimate(); !e.feasible) {
    setState(State::Refused, QString::fromStdString(e.explanation));
    return;
  }
  join();  // a cancelled worker may still be finishing its step
  const int generation = ++m_generation;
  m_cancel = std::make_shared<std::atomic<bool>>(false);
  m_done = m_total = 0;
  m_stage.clear();
  setState(State::Computing);
  // The worker has its own copies: the robot may be replaced while it runs.
  auto model = std::make_shared<const dyn::Model>(m_robot->model());
  std::shared_ptr<const dyn::DhTable> table;
  if (m_parameters == dyn::EquationParameters::Symbolic && m_robot->dhTable())
    table = std::make_shared<const dyn::DhTable>(*m_robot->dhTable());
  const dyn::EquationParameters parameters = m_parameters;
  const QPointer<EquationsDocument> self(this);
  const std::shared_ptr<std::atomic<bool>> cancelFlag = m_cancel;
  m_worker = std::thread([self, generation, model, table, parameters, cancelFlag] {
    // Answers come back on the GUI thread; one for an older request is dropped there.
    const auto answer = [&](auto f) {
      QMetaObject::invokeMethod(
          self.data(),
          [self, generation, f] {
            if (self && self->m_generation == generation) f(*self);
          },
          Qt::QueuedConnection);
    };
    dyn::EquationsRequest request;
    request.parameters = parameters;
    request.table = table.get();
    request.cancel = cancelFlag.get();
    request.progress = [&](int done, int total, const std::string& stage) {
      answer([done, total, stage = QString::fromStdString(stage)](EquationsDocument& d) {
        d.m_done = done, d.m_total = total, d.m_stage = stage;
        emit d.progressChanged();
      });
    };
    try {
      auto report = std::make_shared<const dyn::EquationsReport>(dyn::equationsReport(*model, request));
      answer([report](EquationsDocument& d) {
        d.m_report = report;
        d.setState(State::Ready);
      });
    } catch (const dyn::EquationsCancelled&) {
      answer([](EquationsDocument& d) { d.setState(State::Cancelled, tr("Cancelled.")); });
    } catch (const dyn::EquationsUnsupported& e) {
      answer([m = QString::fromStdString(e.what())](EquationsDocument& d) { d.setState(State::Refused, m); });
    } catch (const std::exception& e) {
      answer([m = QString::fromStdString(e.what())](EquationsDocument& d) { d.setState(State::Failed, m); });
    }
  });
#endif
}

QString EquationsDocument::exportText(dyn::EquationFormat format) const {
#if DYNSCOPE_HAS_SYMBOLIC
  if (m_state == State::Ready && m_report)
    return QString::fromStdString(dyn::writeEquations(*m_report, format, m_robot->sourceFile().toStdString()));
#else
  (void)format;
#endif
  return {};
}

bool EquationsDocument::exportTo(const QString& path, dyn::EquationFormat format, QString* error) const {
  const auto fail = [&](const QString& m) {
    if (error) *error = m;
    return false;
  };
  if (m_state != State::Ready) return fail(tr("the equations of motion have not been derived yet"));
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text))
    return fail(tr("cannot write %1: %2").arg(path, f.errorString()));
  f.write(exportText(format).toUtf8());
  if (!f.flush()) return fail(tr("cannot write %1: %2").arg(path, f.errorString()));
  return true;
}

std::optional<dyn::EquationFormat> EquationsDocument::formatForSuffix(const QString& suffix) {
  const QString s = suffix.toLower();
  if (s == "tex") return dyn::EquationFormat::Latex;
  if (s == "c" || s == "h") return dyn::EquationFormat::C;
  if (s == "py") return dyn::EquationFormat::Python;
  if (s == "m") return dyn::EquationFormat::Matlab;
  if (s == "txt") return dyn::EquationFormat::Text;
  if (s == "json") return dyn::EquationFormat::Json;
  return std::nullopt;
}
