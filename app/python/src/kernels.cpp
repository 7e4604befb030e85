#include "kernels.hpp"

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>

#include "dynscope/dynscope.hpp"

namespace pyd::kernels {

const Eigen::VectorXd& rnea(const dyn::Model& m, dyn::Data& d, CVec q, CVec qd, CVec qdd, const Fext* fext) {
  return dyn::rnea(m, d, q, qd, qdd, fext);
}
const Eigen::VectorXd& aba(const dyn::Model& m, dyn::Data& d, CVec q, CVec qd, CVec tau, const Fext* fext) {
  return dyn::aba(m, d, q, qd, tau, fext);
}
const Eigen::VectorXd& forwardDynamicsCrba(const dyn::Model& m, dyn::Data& d, CVec q, CVec qd, CVec tau,
                                           const Fext* fext) {
  return dyn::forwardDynamicsCrba(m, d, q, qd, tau, fext);
}
const Eigen::MatrixXd& crba(const dyn::Model& m, dyn::Data& d, CVec q) { return dyn::crba(m, d, q); }
const Eigen::VectorXd& nonLinearEffects(const dyn::Model& m, dyn::Data& d, CVec q, CVec qd) {
  return dyn::nonLinearEffects(m, d, q, qd);
}
const Eigen::VectorXd& gravityVector(const dyn::Model& m, dyn::Data& d, CVec q) { return dyn::gravityVector(m, d, q); }

void kinematics(const dyn::Model& m, dyn::Data& d, CVec q, const CVec* qd) {
  if (qd)
    dyn::forwardKinematics(m, d, q, *qd);
  else
    dyn::forwardKinematics(m, d, q);
  dyn::updateFrames(m, d);
}

const dyn::Mat6X<double>& jacobian(const dyn::Model& m, dyn::Data& d, CVec q, int frame, dyn::ReferenceFrame ref) {
  return dyn::frameJacobian(m, d, q, frame, ref);
}

void energy(const dyn::Model& m, dyn::Data& d, CVec q, CVec qd) { dyn::computeEnergy(m, d, q, qd); }

namespace {

// One row of a batch.
void batchRow(Batched what, const dyn::Model& m, dyn::Data& d, const double* a, const double* b, const double* c,
              double* out, int extra, int extra2) {
  const CVec q(a, m.nq);
  const auto vec = [&](const double* x) { return CVec(x, m.nv); };
  Eigen::Map<Eigen::VectorXd> o(out, m.nv);
  switch (what) {
    case Batched::Rnea:
      o = dyn::rnea(m, d, q, vec(b), vec(c));
      break;
    case Batched::Aba:
      o = dyn::aba(m, d, q, vec(b), vec(c));
      break;
    case Batched::FdCrba:
      o = dyn::forwardDynamicsCrba(m, d, q, vec(b), vec(c));
      break;
    case Batched::Nle:
      o = dyn::nonLinearEffects(m, d, q, vec(b));
      break;
    case Batched::Gravity:
      o = dyn::gravityVector(m, d, q);
      break;
    case Batched::Crba:  // H is symmetric: row-major storage is the same as column-major
      Eigen::Map<Eigen::MatrixXd>(out, m.nv, m.nv) = dyn::crba(m, d, q);
      break;
    case Batched::FramePose: {
      dyn::forwardKinematics(m, d, q);
      const dyn::Transform<double> X = m.frames[size_t(extra)].placement * d.X0[m.frames[size_t(extra)].body];
      Eigen::Map<Eigen::Matrix<double, 4, 4, Eigen::RowMajor>> T(out);
      T.setIdentity();
      T.topLeftCorner<3, 3>() = X.rotation();
      T.topRightCorner<3, 1>() = X.translation();
      break;
    }
    case Batched::Jacobian:
      Eigen::Map<Eigen::Matrix<double, 6, Eigen::Dynamic, Eigen::RowMajor>>(out, 6, m.nv) =
          dyn::frameJacobian(m, d, q, extra, dyn::ReferenceFrame(extra2));
      break;
  }
}

Eigen::Index outputSize(Batched what, const dyn::Model& m) {
  switch (what) {
    case Batched::Crba:
      return Eigen::Index(m.nv) * m.nv;
    case Batched::FramePose:
      return 16;
    case Batched::Jacobian:
      return Eigen::Index(6) * m.nv;
    default:
      return m.nv;
  }
}

Eigen::Index inputStride(Batched what, const dyn::Model& m, int input) { return input == 0 ? m.nq : m.nv; }

}  // namespace

int batchThreads(Eigen::Index n, int threads) {
  const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
  const int wanted = threads > 0 ? threads : cores;
  return int(std::max<Eigen::Index>(1, std::min<Eigen::Index>(wanted, (n + 15) / 16)));  // >= 16 rows each
}

void batch(Batched what, const dyn::Model& m, Eigen::Index n, const double* a, const double* b, const double* c,
           double* out, int threads, int extra, int extra2) {
  const int t = batchThreads(n, threads);
  const Eigen::Index so = outputSize(what, m), sa = inputStride(what, m, 0), sb = inputStride(what, m, 1);
  std::vector<std::exception_ptr> errors(static_cast<size_t>(t));
  std::vector<Eigen::Index> failedRow(static_cast<size_t>(t), -1);
  const auto work = [&](int k) {
    const Eigen::Index begin = n * k / t, end = n * (k + 1) / t;
    Eigen::Index i = begin;
    try {
      dyn::Data d(m);  // this thread's workspace
      if (what == Batched::Crba || what == Batched::FdCrba) d.reserveFactor();
      for (; i < end; ++i)
        batchRow(what, m, d, a + i * sa, b ? b + i * sb : nullptr, c ? c + i * sb : nullptr, out + i * so, extra,
                 extra2);
    } catch (...) {
      errors[size_t(k)] = std::current_exception();
      failedRow[size_t(k)] = i;
    }
  };
  std::vector<std::thread> pool;
  for (int k = 1; k < t; ++k) pool.emplace_back(work, k);
  work(0);
  for (auto& th : pool) th.join();
  for (int k = 0; k < t; ++k) {
    if (!errors[size_t(k)]) continue;
    const std::string row = "state " + std::to_string(failedRow[size_t(k)]) + " (row of the input): ";
    try {
      std::rethrow_exception(errors[size_t(k)]);
    } catch (const dyn::ForwardDynamicsError& e) {
      throw dyn::ForwardDynamicsError(row + e.what(), e.body());
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(row + e.what());
    } catch (const std::exception& e) {
      throw std::runtime_error(row + e.what());
    }
  }
}

}  // namespace pyd::kernels
