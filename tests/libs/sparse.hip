/* SPDX-License-Identifier: MIT */
// rocSPARSE and hipSPARSE (Debian's librocsparse0, libhipsparse0) on the simulated GPU.
// A random CSR matrix (empty rows, short rows and a few rows of hundreds of entries, so
// that the adaptive SpMV bins rows of every kind) with small integer values, so that every
// sum is exact and results are compared with the host for equality:
//  - rocsparse_dcsrmv without an info object (the plain kernel) and after
//    rocsparse_dcsrmv_analysis (the adaptive kernel), y = alpha*A*x + beta*y;
//  - conversions: dense2csr (with dnnz), csr2dense, csr2coo, coo2csr, csr2csc;
//  - triangular solve: csrsv_buffer_size/analysis/solve on a lower triangular matrix,
//    unit and non-unit diagonal, against a host forward substitution; zero pivot: none;
//  - hipSPARSE: hipsparseDcsrmv, hipsparseXcsr2coo, hipsparseDnnz + hipsparseDdense2csr
//    and hipsparseDcsrsv2_* give the same answers.
// Exits 0 only when every result is right.
#include "sparse_common.h"
#include <hipsparse/hipsparse.h>

#define HS_OK(call) do { hipsparseStatus_t s_ = (call); if (s_ != HIPSPARSE_STATUS_SUCCESS) { \
    std::fprintf(stderr, "%s:%d: %s: hipsparse status %d\n", __FILE__, __LINE__, #call, (int)s_); \
    std::exit(1); } } while (0)

// L y = alpha b, by forward substitution (unit: the stored diagonal is taken as 1)
static std::vector<double> host_lower_solve(const csr &l, double alpha, const std::vector<double> &b, bool unit)
{
  std::vector<double> y(l.m);
  for (int r = 0; r < l.m; r++) {
    double s = alpha * b[r], d = 1;
    for (int k = l.ptr[r]; k < l.ptr[r + 1]; k++) {
      if (l.col[k] < r) s -= l.val[k] * y[l.col[k]];
      else if (l.col[k] == r && !unit) d = l.val[k];
    }
    y[r] = s / d;
  }
  return y;
}

int main()
{
  unsigned long long seed = 2024;
  const int m = 1500, n = 1100;
  csr a = random_csr(m, n, seed, false);
  const int nnz = a.ptr[m];
  std::vector<double> x(n), y0(m);
  for (auto &v : x) v = (double)((int)(hc_rand(seed) % 9) - 4);
  for (auto &v : y0) v = (double)((int)(hc_rand(seed) % 9) - 4);
  const double alpha = 2, beta = -1;
  auto want_y = host_spmv(a, alpha, x, beta, y0);

  rocsparse_handle h;
  RS_OK(rocsparse_create_handle(&h));
  rocsparse_mat_descr descr;
  RS_OK(rocsparse_create_mat_descr(&descr));
  dbuf<int> dptr(a.ptr), dcol(a.col);
  dbuf<double> dval(a.val), dx(x), dy(y0);

  // SpMV: plain, then adaptive (analysis into an info object), twice each
  RS_OK(rocsparse_dcsrmv(h, rocsparse_operation_none, m, n, nnz, &alpha, descr, dval.p, dptr.p, dcol.p,
                         nullptr, dx.p, &beta, dy.p));
  same("csrmv (plain)", dy.get(), want_y);
  rocsparse_mat_info info;
  RS_OK(rocsparse_create_mat_info(&info));
  RS_OK(rocsparse_dcsrmv_analysis(h, rocsparse_operation_none, m, n, nnz, descr, dval.p, dptr.p, dcol.p, info));
  for (int rep = 0; rep < 2; rep++) {
    dy.put(y0);
    RS_OK(rocsparse_dcsrmv(h, rocsparse_operation_none, m, n, nnz, &alpha, descr, dval.p, dptr.p, dcol.p,
                           info, dx.p, &beta, dy.p));
    same("csrmv (adaptive)", dy.get(), want_y);
  }
  RS_OK(rocsparse_csrmv_clear(h, info));

  { // conversions; rocSPARSE's dense matrices are column-major
    std::vector<double> dense((size_t)m * n, 0.0);
    for (int r = 0; r < m; r++)
      for (int k = a.ptr[r]; k < a.ptr[r + 1]; k++) dense[(size_t)a.col[k] * m + r] = a.val[k];
    // zeros among the stored values disappear in dense2csr: the host's expected CSR drops them
    csr nz{m, n, {0}, {}, {}};
    for (int r = 0; r < m; r++) {
      for (int k = a.ptr[r]; k < a.ptr[r + 1]; k++)
        if (a.val[k] != 0) { nz.col.push_back(a.col[k]); nz.val.push_back(a.val[k]); }
      nz.ptr.push_back((int)nz.col.size());
    }
    dbuf<double> ddense(dense.size());
    RS_OK(rocsparse_dcsr2dense(h, m, n, descr, dval.p, dptr.p, dcol.p, ddense.p, m));
    same("csr2dense", ddense.get(), dense);

    dbuf<int> per_row(m);
    int total = -1;
    RS_OK(rocsparse_dnnz(h, rocsparse_direction_row, m, n, descr, ddense.p, m, per_row.p, &total));
    EXPECT(total == nz.ptr[m], "dnnz: %d non-zeros, want %d", total, nz.ptr[m]);
    std::vector<int> want_per_row(m);
    for (int r = 0; r < m; r++) want_per_row[r] = nz.ptr[r + 1] - nz.ptr[r];
    same("dnnz per row", per_row.get(), want_per_row);
    dbuf<int> p2(m + 1), c2(total);
    dbuf<double> v2(total);
    RS_OK(rocsparse_ddense2csr(h, m, n, descr, ddense.p, m, per_row.p, v2.p, p2.p, c2.p));
    same("dense2csr row pointers", p2.get(), nz.ptr);
    same("dense2csr columns", c2.get(), nz.col);
    same("dense2csr values", v2.get(), nz.val);

    dbuf<int> coo_rows(nnz), back(m + 1);
    RS_OK(rocsparse_csr2coo(h, dptr.p, nnz, m, coo_rows.p, rocsparse_index_base_zero));
    std::vector<int> want_rows;
    for (int r = 0; r < m; r++) want_rows.insert(want_rows.end(), a.ptr[r + 1] - a.ptr[r], r);
    same("csr2coo", coo_rows.get(), want_rows);
    RS_OK(rocsparse_coo2csr(h, coo_rows.p, nnz, m, back.p, rocsparse_index_base_zero));
    same("coo2csr", back.get(), a.ptr);

    // csr2csc: the transpose's CSR; columns in row order within each column
    size_t bsize = 0;
    RS_OK(rocsparse_csr2csc_buffer_size(h, m, n, nnz, dptr.p, dcol.p, rocsparse_action_numeric, &bsize));
    dbuf<char> buf(bsize);
    dbuf<int> cptr(n + 1), crow(nnz);
    dbuf<double> cval(nnz);
    RS_OK(rocsparse_dcsr2csc(h, m, n, nnz, dval.p, dptr.p, dcol.p, cval.p, crow.p, cptr.p,
                             rocsparse_action_numeric, rocsparse_index_base_zero, buf.p));
    std::vector<int> want_cptr(n + 1, 0), want_crow(nnz), fill(n);
    std::vector<double> want_cval(nnz);
    for (int k = 0; k < nnz; k++) want_cptr[a.col[k] + 1]++;
    for (int c = 0; c < n; c++) want_cptr[c + 1] += want_cptr[c];
    for (int r = 0; r < m; r++)
      for (int k = a.ptr[r]; k < a.ptr[r + 1]; k++) {
        int at = want_cptr[a.col[k]] + fill[a.col[k]]++;
        want_crow[at] = r;
        want_cval[at] = a.val[k];
      }
    same("csr2csc column pointers", cptr.get(), want_cptr);
    same("csr2csc rows", crow.get(), want_crow);
    same("csr2csc values", cval.get(), want_cval);
  }

  // triangular solve, lower, non-unit and unit diagonal
  csr l = random_csr(m, m, seed, true);
  const int lnnz = l.ptr[m];
  std::vector<double> b(m);
  for (auto &v : b) v = (double)((int)(hc_rand(seed) % 21) - 10);
  dbuf<int> lptr(l.ptr), lcol(l.col);
  dbuf<double> lval(l.val), db(b), dsol(m);
  for (int unit = 0; unit < 2; unit++) {
    rocsparse_mat_descr ld;
    RS_OK(rocsparse_create_mat_descr(&ld));
    RS_OK(rocsparse_set_mat_fill_mode(ld, rocsparse_fill_mode_lower));
    RS_OK(rocsparse_set_mat_diag_type(ld, unit ? rocsparse_diag_type_unit : rocsparse_diag_type_non_unit));
    rocsparse_mat_info li;
    RS_OK(rocsparse_create_mat_info(&li));
    size_t bsize = 0;
    RS_OK(rocsparse_dcsrsv_buffer_size(h, rocsparse_operation_none, m, lnnz, ld, lval.p, lptr.p, lcol.p, li, &bsize));
    dbuf<char> buf(bsize);
    RS_OK(rocsparse_dcsrsv_analysis(h, rocsparse_operation_none, m, lnnz, ld, lval.p, lptr.p, lcol.p, li,
                                    rocsparse_analysis_policy_force, rocsparse_solve_policy_auto, buf.p));
    const double a2 = 0.5;
    RS_OK(rocsparse_dcsrsv_solve(h, rocsparse_operation_none, m, lnnz, &a2, ld, lval.p, lptr.p, lcol.p, li,
                                 db.p, dsol.p, rocsparse_solve_policy_auto, buf.p));
    int pivot = -2;
    rocsparse_status ps = rocsparse_csrsv_zero_pivot(h, ld, li, &pivot);
    EXPECT(ps == rocsparse_status_success && pivot == -1, "csrsv_zero_pivot: status %d, pivot %d", (int)ps, pivot);
    close_to(unit ? "csrsv (unit diagonal)" : "csrsv", dsol.get(), host_lower_solve(l, a2, b, unit));
    RS_OK(rocsparse_csrsv_clear(h, ld, li));
    RS_OK(rocsparse_destroy_mat_info(li));
    RS_OK(rocsparse_destroy_mat_descr(ld));
  }
  RS_OK(rocsparse_destroy_mat_info(info));
  RS_OK(rocsparse_destroy_mat_descr(descr));
  RS_OK(rocsparse_destroy_handle(h));

  { // hipSPARSE on the same data
    hipsparseHandle_t hh;
    HS_OK(hipsparseCreate(&hh));
    hipsparseMatDescr_t hd;
    HS_OK(hipsparseCreateMatDescr(&hd));
    dy.put(y0);
    HS_OK(hipsparseDcsrmv(hh, HIPSPARSE_OPERATION_NON_TRANSPOSE, m, n, nnz, &alpha, hd, dval.p, dptr.p, dcol.p,
                          dx.p, &beta, dy.p));
    same("hipsparseDcsrmv", dy.get(), want_y);
    dbuf<int> coo_rows(nnz);
    HS_OK(hipsparseXcsr2coo(hh, dptr.p, nnz, m, coo_rows.p, HIPSPARSE_INDEX_BASE_ZERO));
    auto rows = coo_rows.get();
    for (int r = 0; r < m; r++)
      for (int k = a.ptr[r]; k < a.ptr[r + 1]; k++) EXPECT(rows[k] == r, "hipsparseXcsr2coo: entry %d in row %d, want %d", k, rows[k], r);

    // a small dense matrix (row r, column c at c*rows + r) to CSR
    const int dm = 37, dn = 53;
    std::vector<double> dense((size_t)dm * dn, 0.0);
    csr want{dm, dn, {0}, {}, {}};
    for (int r = 0; r < dm; r++) {
      for (int c = 0; c < dn; c++)
        if (hc_rand(seed) % 4 == 0) {
          double v = (double)(1 + hc_rand(seed) % 50);
          dense[(size_t)c * dm + r] = v;
          want.col.push_back(c);
          want.val.push_back(v);
        }
      want.ptr.push_back((int)want.col.size());
    }
    dbuf<double> ddense(dense);
    dbuf<int> per_row(dm);
    int total = -1;
    HS_OK(hipsparseDnnz(hh, HIPSPARSE_DIRECTION_ROW, dm, dn, hd, ddense.p, dm, per_row.p, &total));
    EXPECT(total == want.ptr[dm], "hipsparseDnnz: %d, want %d", total, want.ptr[dm]);
    dbuf<int> p2(dm + 1), c2(total);
    dbuf<double> v2(total);
    HS_OK(hipsparseDdense2csr(hh, dm, dn, hd, ddense.p, dm, per_row.p, v2.p, p2.p, c2.p));
    same("hipsparseDdense2csr row pointers", p2.get(), want.ptr);
    same("hipsparseDdense2csr columns", c2.get(), want.col);
    same("hipsparseDdense2csr values", v2.get(), want.val);

    hipsparseMatDescr_t hl;
    HS_OK(hipsparseCreateMatDescr(&hl));
    HS_OK(hipsparseSetMatFillMode(hl, HIPSPARSE_FILL_MODE_LOWER));
    HS_OK(hipsparseSetMatDiagType(hl, HIPSPARSE_DIAG_TYPE_NON_UNIT));
    csrsv2Info_t si;
    HS_OK(hipsparseCreateCsrsv2Info(&si));
    int bsize = 0;
    HS_OK(hipsparseDcsrsv2_bufferSize(hh, HIPSPARSE_OPERATION_NON_TRANSPOSE, m, lnnz, hl, lval.p, lptr.p, lcol.p,
                                      si, &bsize));
    dbuf<char> buf(bsize);
    HS_OK(hipsparseDcsrsv2_analysis(hh, HIPSPARSE_OPERATION_NON_TRANSPOSE, m, lnnz, hl, lval.p, lptr.p, lcol.p,
                                    si, HIPSPARSE_SOLVE_POLICY_USE_LEVEL, buf.p));
    const double one = 1;
    HS_OK(hipsparseDcsrsv2_solve(hh, HIPSPARSE_OPERATION_NON_TRANSPOSE, m, lnnz, &one, hl, lval.p, lptr.p,
                                 lcol.p, si, db.p, dsol.p, HIPSPARSE_SOLVE_POLICY_USE_LEVEL, buf.p));
    int pivot = -2;
    hipsparseStatus_t ps = hipsparseXcsrsv2_zeroPivot(hh, si, &pivot);
    EXPECT(ps == HIPSPARSE_STATUS_SUCCESS && pivot == -1, "hipsparseXcsrsv2_zeroPivot: status %d, pivot %d", (int)ps, pivot);
    close_to("hipsparseDcsrsv2_solve", dsol.get(), host_lower_solve(l, one, b, false));
    HS_OK(hipsparseDestroyCsrsv2Info(si));
    HS_OK(hipsparseDestroyMatDescr(hl));
    HS_OK(hipsparseDestroyMatDescr(hd));
    HS_OK(hipsparseDestroy(hh));
  }
  std::printf("sparse: %dx%d, %d non-zeros: csrmv plain and adaptive, dense2csr, csr2dense, csr2coo, coo2csr, "
              "csr2csc, csrsv (unit, non-unit), hipSPARSE csrmv/csr2coo/dense2csr/csrsv2: all right\n", m, n, nnz);
  return 0;
}
