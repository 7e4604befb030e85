// The rank-revealing factorization of the closed-loop algorithms: Householder QR with column
// pivoting (Businger & Golub 1965; Golub & Van Loan, Matrix Computations, 4th ed., Alg. 5.4.1),
// A P = Q R, stopping at the numerical rank r (the first |R_kk| <= tol |R_00|). The loop
// algorithms factor A = phi'^T (nv x m): its first r pivot columns are r linearly independent rows
// of phi' (the review's L, eq. 18), Q's first r columns span L's row space and the others its null
// space (the K of eq. 22). Storage is sized once; compute() never allocates for a matrix of the
// constructed shape. Scalar-generic (autodiff, operation counting) like the rest of the engine.
#pragma once
#include <limits>
#include <utility>
#include <vector>

#include "../spatial/scalar.hpp"

namespace dyn {

template <class S>
class PivotedQR {
 public:
  PivotedQR() = default;
  PivotedQR(int rows, int cols)
      : qr_(MatX<S>::Zero(rows, cols)),
        tau_(VecX<S>::Zero(std::min(rows, cols))),
        norms_(VecX<S>::Zero(cols)),
        perm_(cols) {}

  int rows() const { return int(qr_.rows()); }
  int cols() const { return int(qr_.cols()); }

  // Factors A (rows x cols); returns the rank r: the number of reflections taken before the largest
  // remaining column norm fell to relTol times the first one (an all-zero A has rank 0).
  template <class D>
  int compute(const Eigen::MatrixBase<D>& A, const S& relTol) {
    using std::sqrt;
    qr_ = A;
    const int m = rows(), n = cols(), kmax = std::min(m, n);
    for (int j = 0; j < n; ++j) {
      perm_[j] = j;
      norms_[j] = qr_.col(j).squaredNorm();
    }
    rank_ = 0;
    S first = S(0);
    for (int k = 0; k < kmax; ++k) {
      int p = k;  // pivot: the column with the largest norm below row k
      for (int j = k + 1; j < n; ++j)
        if (norms_[j] > norms_[p]) p = j;
      const S colNorm = sqrt(norms_[p]);
      if (k == 0) first = colNorm;
      if (!(colNorm > relTol * first) || !(colNorm > S(0))) break;
      if (p != k) {
        qr_.col(k).swap(qr_.col(p));
        std::swap(perm_[k], perm_[p]);
        std::swap(norms_[k], norms_[p]);
      }
      // Householder reflection H_k = 1 - tau v v^T (v_k = 1) taking column k below row k onto e_k.
      const S alpha = qr_(k, k);
      S tail = S(0);
      for (int i = k + 1; i < m; ++i) tail += qr_(i, k) * qr_(i, k);
      if (tail == S(0)) {
        tau_[k] = S(0);  // already upper triangular here
      } else {
        const S beta = alpha >= S(0) ? S(-sqrt(alpha * alpha + tail)) : S(sqrt(alpha * alpha + tail));
        tau_[k] = (beta - alpha) / beta;
        const S scale = S(1) / (alpha - beta);
        for (int i = k + 1; i < m; ++i) qr_(i, k) *= scale;  // v below the diagonal
        qr_(k, k) = beta;
        for (int j = k + 1; j < n; ++j) {  // the remaining columns: a_j -= tau v (v . a_j)
          S s = qr_(k, j);
          for (int i = k + 1; i < m; ++i) s += qr_(i, k) * qr_(i, j);
          s *= tau_[k];
          qr_(k, j) -= s;
          for (int i = k + 1; i < m; ++i) qr_(i, j) -= s * qr_(i, k);
        }
      }
      ++rank_;
      for (int j = k + 1; j < n; ++j) {  // norms below row k, recomputed (downdating loses digits)
        S s = S(0);
        for (int i = k + 1; i < m; ++i) s += qr_(i, j) * qr_(i, j);
        norms_[j] = s;
      }
    }
    return rank_;
  }

  int rank() const { return rank_; }
  // perm[k]: the column of A at position k of A P; perm[0..rank) are the independent columns chosen.
  const std::vector<int>& permutation() const { return perm_; }
  // R's entries (upper triangle, rows and columns 0..rank).
  const S& R(int i, int j) const { return qr_(i, j); }

  // x <- Q^T x (x has rows() entries; any vector expression with operator[]).
  template <class V>
  void applyQt(V&& x) const {
    for (int k = 0; k < rank_; ++k) reflect(k, x);
  }
  // x <- Q x.
  template <class V>
  void applyQ(V&& x) const {
    for (int k = rank_ - 1; k >= 0; --k) reflect(k, x);
  }

  // For A = M^T: the minimum-norm x (rows() entries) with M_sel x = b_sel, M_sel the rank rows of M
  // that the pivots chose (b has cols() entries, read through the permutation): x = Q_r R_rr^-T b_sel.
  // When M x = b is consistent, every row of it holds.
  template <class B, class X>
  void solveTransposedMinNorm(const Eigen::MatrixBase<B>& b, Eigen::MatrixBase<X>& x) const {
    x.setZero();
    for (int i = 0; i < rank_; ++i) {  // R_rr^T y = b_sel (forward substitution)
      S s = S(b[perm_[i]]);
      for (int k = 0; k < i; ++k) s -= qr_(k, i) * x[k];
      x[i] = s / qr_(i, i);
    }
    applyQ(x);
  }

  // For A = M^T: the least-squares y (rank entries) of M_sel^T y = g, i.e. A_sel y = g (g has rows()
  // entries; clobbered into Q^T g): y = R_rr^-1 (Q^T g)_r. The multipliers of the chosen rows.
  template <class G, class Y>
  void solveSelectedColumns(Eigen::MatrixBase<G>& g, Eigen::MatrixBase<Y>& y) const {
    applyQt(g);
    for (int i = rank_ - 1; i >= 0; --i) {  // back substitution
      S s = g[i];
      for (int k = i + 1; k < rank_; ++k) s -= qr_(i, k) * y[k];
      y[i] = s / qr_(i, i);
    }
  }

 private:
  // x <- H_k x with H_k = 1 - tau_k v_k v_k^T, v_k = (0..0, 1, qr_(k+1.., k)).
  template <class V>
  void reflect(int k, V& x) const {
    if (tau_[k] == S(0)) return;
    const int m = rows();
    S s = x[k];
    for (int i = k + 1; i < m; ++i) s += qr_(i, k) * x[i];
    s *= tau_[k];
    x[k] -= s;
    for (int i = k + 1; i < m; ++i) x[i] -= s * qr_(i, k);
  }

  MatX<S> qr_;  // R on and above the diagonal, the reflectors' v below it
  VecX<S> tau_, norms_;
  std::vector<int> perm_;
  int rank_ = 0;
};

// In-place Cholesky A = G G^T of the leading n x n block of A (a matrix or a block of one; the lower
// triangle is used and overwritten), right-looking so that every update is a contiguous column
// operation. False when a pivot is not positive beyond relTol times the largest diagonal entry
// (the block is singular to working precision, e.g. L M^-1 L^T at a singular configuration).
template <class S, class M>
bool choleskyInPlace(M&& A, int n, const S& relTol) {
  using std::sqrt;
  S scale = S(0);
  for (int i = 0; i < n; ++i)
    if (A(i, i) > scale) scale = A(i, i);
  for (int j = 0; j < n; ++j) {
    const S d = A(j, j);
    if (!(d > relTol * scale)) return false;
    const S g = sqrt(d);
    A(j, j) = g;
    const int below = n - j - 1;
    A.col(j).segment(j + 1, below) /= g;
    for (int k = j + 1; k < n; ++k)  // trailing lower triangle: A_kk.. -= G_k..,j G_kj
      A.col(k).segment(k, n - k) -= A.col(j).segment(k, n - k) * A(k, j);
  }
  return true;
}

// Solves (G G^T) x = b in place with G from choleskyInPlace.
template <class S, class M, class V>
void choleskySolveInPlace(const M& G, int n, V&& x) {
  for (int k = 0; k < n; ++k) {  // G y = b, column by column
    x[k] /= G(k, k);
    for (int i = k + 1; i < n; ++i) x[i] -= G(i, k) * x[k];
  }
  for (int i = n - 1; i >= 0; --i) {  // G^T x = y
    S s = x[i];
    for (int k = i + 1; k < n; ++k) s -= G(k, i) * x[k];
    x[i] = s / G(i, i);
  }
}

// In-place LU with partial pivoting of the leading n x n block (LAPACK's getrf, unblocked):
// P A = L U, piv[k] the row swapped with k. False when a column has no pivot above relTol times
// the largest entry of A (singular).
template <class S, class M>
bool luInPlace(M&& A, int n, std::vector<int>& piv, const S& relTol) {
  using std::abs;
  S scale = S(0);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      if (abs(A(i, j)) > scale) scale = abs(A(i, j));
  for (int k = 0; k < n; ++k) {
    int p = k;
    for (int i = k + 1; i < n; ++i)
      if (abs(A(i, k)) > abs(A(p, k))) p = i;
    piv[k] = p;
    if (!(abs(A(p, k)) > relTol * scale)) return false;
    if (p != k)
      for (int j = 0; j < n; ++j) std::swap(A(k, j), A(p, j));
    const S inv = S(1) / A(k, k);
    for (int i = k + 1; i < n; ++i) A(i, k) *= inv;
    for (int j = k + 1; j < n; ++j) {
      const S akj = A(k, j);
      if (akj == S(0)) continue;
      for (int i = k + 1; i < n; ++i) A(i, j) -= A(i, k) * akj;
    }
  }
  return true;
}

// Solves A x = b in place with the factors of luInPlace.
template <class S, class M, class V>
void luSolveInPlace(const M& LU, int n, const std::vector<int>& piv, V&& x) {
  for (int k = 0; k < n; ++k)
    if (piv[k] != k) std::swap(x[k], x[piv[k]]);
  for (int i = 0; i < n; ++i) {
    S s = x[i];
    for (int k = 0; k < i; ++k) s -= LU(i, k) * x[k];
    x[i] = s;
  }
  for (int i = n - 1; i >= 0; --i) {
    S s = x[i];
    for (int k = i + 1; k < n; ++k) s -= LU(i, k) * x[k];
    x[i] = s / LU(i, i);
  }
}

}  // namespace dyn
