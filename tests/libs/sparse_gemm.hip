/* SPDX-License-Identifier: MIT */
// More of rocSPARSE (Debian's librocsparse0): COO and ELL SpMV, sparse x dense (csrmm),
// sparse x sparse (csrgemm, C = alpha*A*B + beta*D) and a tridiagonal solve (gtsv), with
// small integer values so that results are exact (gtsv: close) and compared with the host.
// A's rows are short, medium and long, so that csrgemm sorts rows into every one of its
// groups by their number of products, up to its multipass kernel for rows of more than
// 8192 products, over a C of several 2048-column chunks. Exits 0 only when all are right.
#include "sparse_common.h"
#include <map>

int main()
{
  unsigned long long seed = 77;
  const int m = 600, k = 400, n = 41, nc = 3000;
  csr a = random_csr(m, k, seed, false, 330, 60);   // long rows: 330-389 entries
  const int nnz = a.ptr[m];
  rocsparse_handle h;
  RS_OK(rocsparse_create_handle(&h));
  rocsparse_mat_descr d;
  RS_OK(rocsparse_create_mat_descr(&d));
  dbuf<int> dptr(a.ptr), dcol(a.col);
  dbuf<double> dval(a.val);
  std::vector<double> x(k), y0(m);
  for (auto &v : x) v = (double)((int)(hc_rand(seed) % 9) - 4);
  for (auto &v : y0) v = (double)((int)(hc_rand(seed) % 9) - 4);
  const double alpha = 3, beta = 2;
  const auto want_y = host_spmv(a, alpha, x, beta, y0);
  dbuf<double> dx(x), dy(y0);

  { // COO SpMV
    std::vector<int> rows;
    for (int r = 0; r < m; r++) rows.insert(rows.end(), a.ptr[r + 1] - a.ptr[r], r);
    dbuf<int> drows(rows);
    RS_OK(rocsparse_dcoomv(h, rocsparse_operation_none, m, k, nnz, &alpha, d, dval.p, drows.p, dcol.p, dx.p,
                           &beta, dy.p));
    same("coomv", dy.get(), want_y);
  }
  { // ELL SpMV, after csr2ell
    rocsparse_mat_descr ed;
    RS_OK(rocsparse_create_mat_descr(&ed));
    int width = 0;
    RS_OK(rocsparse_csr2ell_width(h, m, d, dptr.p, ed, &width));
    int want_width = 0;
    for (int r = 0; r < m; r++) want_width = std::max(want_width, a.ptr[r + 1] - a.ptr[r]);
    EXPECT(width == want_width, "csr2ell_width: %d, want %d", width, want_width);
    dbuf<int> ecol((size_t)width * m);
    dbuf<double> evl((size_t)width * m);
    RS_OK(rocsparse_dcsr2ell(h, m, d, dval.p, dptr.p, dcol.p, ed, width, evl.p, ecol.p));
    dy.put(y0);
    RS_OK(rocsparse_dellmv(h, rocsparse_operation_none, m, k, &alpha, ed, evl.p, ecol.p, width, dx.p, &beta, dy.p));
    same("ellmv", dy.get(), want_y);
    RS_OK(rocsparse_destroy_mat_descr(ed));
  }
  { // csrmm: C (m x n) = alpha A B + beta C, B and C column-major
    std::vector<double> b((size_t)k * n), c0((size_t)m * n);
    for (auto &v : b) v = (double)((int)(hc_rand(seed) % 7) - 3);
    for (auto &v : c0) v = (double)((int)(hc_rand(seed) % 7) - 3);
    std::vector<double> want = c0;
    for (int j = 0; j < n; j++)
      for (int r = 0; r < m; r++) {
        double s = 0;
        for (int q = a.ptr[r]; q < a.ptr[r + 1]; q++) s += a.val[q] * b[(size_t)j * k + a.col[q]];
        want[(size_t)j * m + r] = alpha * s + beta * c0[(size_t)j * m + r];
      }
    dbuf<double> db(b), dc(c0);
    RS_OK(rocsparse_dcsrmm(h, rocsparse_operation_none, rocsparse_operation_none, m, n, k, nnz, &alpha, d, dval.p,
                           dptr.p, dcol.p, db.p, k, &beta, dc.p, m));
    same("csrmm", dc.get(), want);
  }
  { // csrgemm: C = alpha A B + beta D, B k x nc with 20-60 entries a row, D m x nc
    csr b{k, nc, {0}, {}, {}};
    for (int r = 0; r < k; r++) {
      std::vector<int> cols;
      for (int q = 0, len = 20 + (int)(hc_rand(seed) % 41); q < len; q++) cols.push_back((int)(hc_rand(seed) % nc));
      std::sort(cols.begin(), cols.end());
      cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
      for (int c : cols) { b.col.push_back(c); b.val.push_back((double)((int)(hc_rand(seed) % 9) - 4)); }
      b.ptr.push_back((int)b.col.size());
    }
    csr dd = random_csr(m, nc, seed, false);
    std::vector<std::map<int, double>> rows(m);   // structural entries of C, even when they sum to 0
    long most = 0;
    for (int r = 0; r < m; r++) {
      long products = 0;
      for (int q = a.ptr[r]; q < a.ptr[r + 1]; q++)
        for (int t = b.ptr[a.col[q]]; t < b.ptr[a.col[q] + 1]; t++, products++)
          rows[r][b.col[t]] += alpha * a.val[q] * b.val[t];
      for (int q = dd.ptr[r]; q < dd.ptr[r + 1]; q++) rows[r][dd.col[q]] += beta * dd.val[q];
      most = std::max(most, products);
    }
    EXPECT(most > 8192, "the test matrix has no row of more than 8192 products (%ld)", most);
    std::vector<int> wptr{0}, wcol;
    std::vector<double> wval;
    for (auto &row : rows) {
      for (auto &e : row) { wcol.push_back(e.first); wval.push_back(e.second); }
      wptr.push_back((int)wcol.size());
    }
    dbuf<int> bptr(b.ptr), bcol(b.col), eptr(dd.ptr), ecol(dd.col);
    dbuf<double> bval(b.val), evl(dd.val);
    rocsparse_mat_info info;
    RS_OK(rocsparse_create_mat_info(&info));
    size_t bsize = 0;
    RS_OK(rocsparse_dcsrgemm_buffer_size(h, rocsparse_operation_none, rocsparse_operation_none, m, nc, k, &alpha,
                                         d, nnz, dptr.p, dcol.p, d, b.ptr[k], bptr.p, bcol.p, &beta, d, dd.ptr[m],
                                         eptr.p, ecol.p, info, &bsize));
    dbuf<char> buf(bsize);
    dbuf<int> cptr(m + 1);
    int cnnz = -1;
    RS_OK(rocsparse_csrgemm_nnz(h, rocsparse_operation_none, rocsparse_operation_none, m, nc, k, d, nnz, dptr.p,
                                dcol.p, d, b.ptr[k], bptr.p, bcol.p, d, dd.ptr[m], eptr.p, ecol.p, d, cptr.p, &cnnz,
                                info, buf.p));
    auto got_ptr = cptr.get();
    for (int r = 0; r < m; r++)
      EXPECT(got_ptr[r + 1] - got_ptr[r] == wptr[r + 1] - wptr[r], "csrgemm_nnz: row %d has %d entries, want %d",
             r, got_ptr[r + 1] - got_ptr[r], wptr[r + 1] - wptr[r]);
    EXPECT(cnnz == wptr[m], "csrgemm_nnz: %d, want %d", cnnz, wptr[m]);
    dbuf<int> ccol(cnnz);
    dbuf<double> cval(cnnz);
    RS_OK(rocsparse_dcsrgemm(h, rocsparse_operation_none, rocsparse_operation_none, m, nc, k, &alpha, d, nnz,
                             dval.p, dptr.p, dcol.p, d, b.ptr[k], bval.p, bptr.p, bcol.p, &beta, d, dd.ptr[m],
                             evl.p, eptr.p, ecol.p, d, cval.p, cptr.p, ccol.p, info, buf.p));
    same("csrgemm row pointers", cptr.get(), wptr);
    same("csrgemm columns", ccol.get(), wcol);
    same("csrgemm values", cval.get(), wval);
    RS_OK(rocsparse_destroy_mat_info(info));
    std::printf("sparse_gemm: csrgemm of %d x %d, up to %ld products a row, %d entries\n", m, nc, most, cnnz);
  }
  { // gtsv: a diagonally dominant tridiagonal system whose solution is known
    const int t = 700;
    std::vector<double> dl(t), dm(t), du(t), rhs(t), sol(t);
    for (int i = 0; i < t; i++) {
      dl[i] = i ? (double)(hc_rand(seed) % 5) - 2 : 0;
      du[i] = i < t - 1 ? (double)(hc_rand(seed) % 5) - 2 : 0;
      dm[i] = 10 + hc_rand(seed) % 3;
      sol[i] = (double)(hc_rand(seed) % 9) - 4;
    }
    for (int i = 0; i < t; i++)
      rhs[i] = dm[i] * sol[i] + (i ? dl[i] * sol[i - 1] : 0) + (i < t - 1 ? du[i] * sol[i + 1] : 0);
    dbuf<double> ddl(dl), ddm(dm), ddu(du), drhs(rhs);
    size_t bsize = 0;
    RS_OK(rocsparse_dgtsv_buffer_size(h, t, 1, ddl.p, ddm.p, ddu.p, drhs.p, t, &bsize));
    dbuf<char> buf(bsize);
    RS_OK(rocsparse_dgtsv(h, t, 1, ddl.p, ddm.p, ddu.p, drhs.p, t, buf.p));
    close_to("gtsv", drhs.get(), sol);
  }
  RS_OK(rocsparse_destroy_mat_descr(d));
  RS_OK(rocsparse_destroy_handle(h));
  std::printf("sparse_gemm: coomv, ellmv, csrmm, csrgemm, gtsv: all right\n");
  return 0;
}
