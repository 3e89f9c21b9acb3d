// The measures of metrics/ on N x d numpy embeddings: Wang & Isola's alignment and uniformity,
// and Papyan et al.'s neural-collapse measures. Each releases the GIL while it computes.
#include <pybind11/stl.h>

#include <string>
#include <utility>

#include "bindings.hpp"
#include "geomsim/metrics/alignment_uniformity.hpp"
#include "geomsim/metrics/class_means.hpp"
#include "geomsim/metrics/neural_collapse.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/experiments/measure_json.hpp"
#include "numpy_views.hpp"

namespace geomsim::python {
namespace {

py::dict neural_collapse_dict(const NeuralCollapse& nc) {
  py::dict out;
  out["num_classes"] = nc.num_classes;
  out["between_rank"] = nc.between_rank;
  out["nc1"] = optional_float(nc.nc1);
  out["equinorm"] = optional_float(nc.equinorm);
  out["equiangularity"] = optional_float(nc.equiangularity);
  out["max_cosine_deviation"] = optional_float(nc.max_cosine_deviation);
  out["cosine_sd"] = optional_float(nc.cosine_sd);
  return out;
}

std::vector<std::pair<Index, Index>> pairs_argument(const py::handle& object, Index n) {
  const PointsArgument pairs = points_argument(object, "pairs");  // any real dtype, as a 2-D array
  if (pairs.array.shape(1) != 2) {
    throw InvalidArgument("pairs", "must be an M x 2 array of point indices, got " + std::to_string(pairs.array.shape(1)) +
                                       " columns");
  }
  std::vector<std::pair<Index, Index>> out;
  const auto view = pairs.view();
  for (Index m = 0; m < view.cols(); ++m) {
    const double i = view(0, m), j = view(1, m);
    if (i != static_cast<double>(static_cast<Index>(i)) || j != static_cast<double>(static_cast<Index>(j))) {
      throw InvalidArgument("pairs", "must hold whole point indices in 0.." + std::to_string(n - 1));
    }
    out.emplace_back(static_cast<Index>(i), static_cast<Index>(j));
  }
  return out;
}

}  // namespace

void bind_measures(py::module_& module) {
  module.def(
      "measure",
      [](const py::object& embeddings, const py::object& labels, const py::object& subclasses, double gamma, std::uint64_t seed,
         const py::object& reference, const py::object& reference_subclasses, const py::object& predictions) {
        const PointsArgument x = points_argument(embeddings, "embeddings");
        const auto n = static_cast<py::ssize_t>(x.view().cols());
        const std::vector<int> y = labels_argument(labels, "labels", n), z = labels_argument(subclasses, "subclasses", n);
        if (reference.is_none() != reference_subclasses.is_none()) {
          throw InvalidArgument("reference", "and reference_subclasses go together");
        }
        Matrix reference_points;
        std::vector<int> reference_z, predicted;
        if (!reference.is_none()) {
          const PointsArgument r = points_argument(reference, "reference");
          reference_points = r.view();
          reference_z = labels_argument(reference_subclasses, "reference_subclasses", static_cast<py::ssize_t>(reference_points.cols()));
        }
        if (!predictions.is_none()) predicted = labels_argument(predictions, "predictions", n);
        std::string text;
        {
          const py::gil_scoped_release release;
          const Matrix points = x.view();
          text = measured_geometry_json(points, y, z, gamma, seed, reference.is_none() ? nullptr : &reference_points,
                                             reference.is_none() ? nullptr : &reference_z, predictions.is_none() ? nullptr : &predicted)
                     .dump();
        }
        // Through Python's json module: the keys and the numbers are the CLI's (17 significant digits
        // round-trip every double exactly).
        return py::module_::import("json").attr("loads")(text);
      },
      py::arg("embeddings"), py::arg("labels"), py::arg("subclasses"), py::arg("gamma") = 1.1, py::arg("seed") = 0,
      py::arg("reference") = py::none(), py::arg("reference_subclasses") = py::none(), py::arg("predictions") = py::none(),
      "The report of `geomsim measure --embeddings` (its JSON's \"geometry\") as a dict with the same keys: s_f(y),\n"
      "sigma_f(z) and their ratio (mean and max), Theorem 3 for the classes with two subclasses, subgroup recovery F1\n"
      "(k-means seeded by `seed`), uniformity, same-class/-subclass alignment, NC1/NC2 of classes and subclasses,\n"
      "and NC4 against `predictions`. labels: the class of each row; subclasses: its subclass (global ids, each\n"
      "inside one class). The mean classifier is fit on (reference, reference_subclasses) when given.");
  module.def(
      "alignment",
      [](const py::object& anchors, const py::object& positives) {
        const PointsArgument a = points_argument(anchors, "anchors"), b = points_argument(positives, "positives");
        const py::gil_scoped_release release;
        return alignment(a.view(), b.view());
      },
      py::arg("anchors"), py::arg("positives"),
      "Wang & Isola's L_align = mean over rows m of |anchors[m] - positives[m]|^2 (alpha = 2).");
  module.def(
      "pair_alignment",
      [](const py::object& embeddings, const py::object& pairs) {
        const PointsArgument x = points_argument(embeddings, "embeddings");
        const auto index_pairs = pairs_argument(pairs, x.view().cols());
        const py::gil_scoped_release release;
        return pair_alignment(x.view(), index_pairs);
      },
      py::arg("embeddings"), py::arg("pairs"), "L_align over M index pairs (an M x 2 integer array) into the embeddings.");
  module.def(
      "same_class_alignment",
      [](const py::object& embeddings, const py::object& labels) {
        const PointsArgument x = points_argument(embeddings, "embeddings");
        const std::vector<int> y = labels_argument(labels, "labels", x.view().cols());
        const py::gil_scoped_release release;
        return same_class_alignment(x.view(), y);
      },
      py::arg("embeddings"), py::arg("labels"),
      "L_align with every ordered pair of distinct same-class points as the positive pairs.");
  module.def(
      "uniformity",
      [](const py::object& embeddings, double t) {
        const PointsArgument x = points_argument(embeddings, "embeddings");
        const py::gil_scoped_release release;
        return uniformity(x.view(), t);
      },
      py::arg("embeddings"), py::arg("t") = 2.0,
      "Wang & Isola's L_unif = log mean exp(-t |x_i - x_j|^2) over the pairs i < j, blocked and in log space\n"
      "(N = 10^5 fits). On the uniform sphere it is log_wiener_constant(1/(2t), d).");
  module.def(
      "neural_collapse",
      [](const py::object& embeddings, const py::object& labels) {
        const PointsArgument x = points_argument(embeddings, "embeddings");
        const std::vector<int> y = labels_argument(labels, "labels", x.view().cols());
        NeuralCollapse nc;
        {
          const py::gil_scoped_release release;
          nc = neural_collapse(x.view(), y);
        }
        return neural_collapse_dict(nc);
      },
      py::arg("embeddings"), py::arg("labels"),
      "Papyan et al.'s NC1 = tr(Sigma_W Sigma_B^+)/K and NC2 (equinorm: CV of |mu_k - mu_G|; equiangularity: mean\n"
      "|cos + 1/(K-1)| of the centred class means, with its max and the cosines' sd), as a dict; None where undefined.");
  module.def(
      "class_means",
      [](const py::object& embeddings, const py::object& labels) {
        const PointsArgument x = points_argument(embeddings, "embeddings");
        const std::vector<int> y = labels_argument(labels, "labels", x.view().cols());
        ClassMeans c = class_means(x.view(), y);
        return points_array(std::move(c.means));
      },
      py::arg("embeddings"), py::arg("labels"), "The K x d class means.");
  module.def(
      "nearest_class_mean",
      [](const py::object& embeddings, const py::object& means) {
        const PointsArgument x = points_argument(embeddings, "embeddings"), m = points_argument(means, "means");
        std::vector<int> nearest;
        {
          const py::gil_scoped_release release;
          nearest = nearest_class_mean(x.view(), m.view());
        }
        return py::array_t<int>(static_cast<py::ssize_t>(nearest.size()), nearest.data());
      },
      py::arg("embeddings"), py::arg("means"), "argmin_k |x - means[k]| for every row (ties to the lowest k).");
  module.def(
      "nearest_class_mean_agreement",
      [](const py::object& embeddings, const py::object& labels, const py::object& predictions) {
        const PointsArgument x = points_argument(embeddings, "embeddings");
        const std::vector<int> y = labels_argument(labels, "labels", x.view().cols());
        const std::vector<int> p = labels_argument(predictions, "predictions", x.view().cols());
        const py::gil_scoped_release release;
        return nearest_class_mean_agreement(x.view(), y, p);
      },
      py::arg("embeddings"), py::arg("labels"), py::arg("predictions"),
      "NC4: the fraction of rows where the nearest-class-mean rule (class means of embeddings, labels) equals predictions.");
}

}  // namespace geomsim::python
