#include "checkpoint_commands.hpp"

#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_support.hpp"
#include "evaluation_output.hpp"
#include "measure_embeddings.hpp"
#include "geomsim/support/atomic_output.hpp"

namespace geomsim::cli {
namespace {

using nlohmann::json;

void add_model_data_options(CLI::App& c, ModelDataOptions& o, bool checkpoint_required = true) {
  auto* checkpoint = c.add_option("--checkpoint", o.checkpoint, "a checkpoint of geomsim train, or a TorchScript module (torch.jit.save)");
  if (checkpoint_required) checkpoint->required();
  add_data_options(c, o.data);
  c.add_flag("--flatten", o.flatten, "give the model N x (H W) rows instead of N x 1 x H x W images");
  c.add_option("--seed", o.seed, "seed of the subsets and of everything random (>= 0)")->capture_default_str()->check(non_negative_integer());
  c.add_option("--threads", o.threads, "CPU threads for libtorch, from 0 (all cores) to the number of cores")->capture_default_str();
  add_device_option(c, o.device, o.device_given);
  c.add_option("--json", o.json_path, "write the results as JSON to FILE");
  c.add_flag("--quiet,-q", o.quiet, "print nothing on stdout");
}

// The JSON lands, then the text (formatted, and every number in it checked, before anything is
// written: a failure leaves no file) is printed unless --quiet.
void finish(const std::string& text, const json& out, const ModelDataOptions& common, OutputTransaction& files) {
  if (!common.json_path.empty()) files.stage(common.json_path, out.dump(2) + "\n", "json");
  files.commit();
  if (!common.quiet) std::cout << text << std::flush;
}

// "DESCRIPTION on DATA, HIERARCHY": the model and its data, as the JSON's "model" has them.
std::string model_on_data(const json& model) {
  return model["model"].get<std::string>() + " on " + model["data"].get<std::string>() + ", " + model["hierarchy"].get<std::string>();
}

}  // namespace

void add_eval_options(CLI::App& c, EvalOptions& o) {
  c.footer("Embeds a training and a test split with the model and reports what `geomsim train` reports: coarse\n"
           "accuracy, coarse-to-fine transfer (linear probe, mean classifier), the Section 4 geometry with\n"
           "Theorem 3 at --gamma, and subgroup recovery. A checkpoint of geomsim train carries its model's options\n"
           "(and for THANOS its autoencoder, whose embedding is concatenated); --hierarchy defaults to its run's.");
  add_model_data_options(c, o.common);
  c.add_option("--train-samples", o.train_samples, "training images the probes are fit on (0: all)")->capture_default_str();
  c.add_option("--test-samples", o.test_samples, "test images (0: all)")->capture_default_str();
  c.add_option("--gamma", o.gamma, "Theorem 3's margin gamma > 1")->capture_default_str();
}

int run_eval(const EvalOptions& o) {
  const json out = eval_run(o);
  std::ostringstream text;
  text << "geomsim eval: " << model_on_data(out["model"]) << " (" << out["train_samples"].get<int64_t>() << " train, "
       << out["test_samples"].get<int64_t>() << " test images)\n"
       << evaluation_text(out["evaluation"]);
  OutputTransaction files;
  finish(text.str(), out, o.common, files);
  return 0;
}

void add_lipschitz_options(CLI::App& c, LipschitzOptions& o) {
  c.footer(
      "Estimates, on pairs of test images of one subclass, the constants of seed 004's Table 1 the paper's way\n"
      "(the largest ratio of output to input distance: the tangent from the origin of Figure 3):\n"
      "  K_L    the encoder;  K_g  the decoder, reversed (THANOS checkpoints);\n"
      "  K_aug  over --augmentations random augmentations applied to both images of a pair, keeping each\n"
      "         pair's smallest ratio (Appendix G.5) or its largest (Figure 3's caption).\n"
      "Beside them: sigma_max of the Jacobian at --jacobian-points images by power iteration (a lower bound on\n"
      "the global constant) and the product of the layers' spectral norms (an upper bound; needs a chain of\n"
      "known layers: --map features for geomsim's mlp and cnn, an nn.Sequential for TorchScript).\n"
      "All in float64.");
  add_model_data_options(c, o.common);
  c.add_option("--pairs", o.pairs, "pairs of images of one subclass")->capture_default_str();
  c.add_option("--augmentations", o.augmentations, "random augmentations per pair for K_aug")->capture_default_str();
  c.add_option("--jacobian-points", o.jacobian_points, "images where the Jacobian's norm is taken")->capture_default_str();
  c.add_option("--map", o.map, "geomsim checkpoints: embedding (unit, the default) or features (before normalisation)")
      ->capture_default_str();
  c.add_option("--out", o.out, "write STEM.csv (every pair) and STEM.png/.svg/.pdf/-2col.pdf/.gp (Figure 3)")
      ->check(no_control_characters());
}

int run_lipschitz(const LipschitzOptions& o) {
  OutputTransaction files;  // STEM.csv and Figure 3, staged by the run
  const json out = lipschitz_run(o, files);
  std::ostringstream text;
  const auto line = [&](const std::string& name, const std::string& value) {
    text << "  " << name << std::string(name.size() < 52 ? 52 - name.size() : 1, ' ') << value << "\n";
  };
  const json& upper = out["layer_product_upper_bound"];
  const json& jacobian = out["jacobian_lower_bound"];
  const double encoder = out["K_L"]["constant"].get<double>();
  text << "geomsim lipschitz: " << out["model"]["model"].get<std::string>() << " (" << o.map << ") on "
       << out["model"]["data"].get<std::string>() << ", " << o.pairs << " pairs within subclasses\n";
  line("K_L   encoder, largest ratio", fixed(encoder, 6));
  line("K_g   decoder reversed, largest ratio", out["K_g"].is_null() ? "n/a (no autoencoder)" : fixed(out["K_g"]["constant"].get<double>(), 6));
  line("K_aug " + std::to_string(o.augmentations) + " augmentations, per-pair min (G.5)", fixed(out["K_aug_min"]["constant"].get<double>(), 6));
  line("K_aug " + std::to_string(o.augmentations) + " augmentations, per-pair max (Fig. 3)", fixed(out["K_aug_max"]["constant"].get<double>(), 6));
  line("Jacobian sigma_max, max over " + std::to_string(jacobian["points"].get<int64_t>()) + " images (lower bound)",
       fixed(jacobian["max"].get<double>(), 6));
  line("product of layer norms (upper bound)",
       !upper["value"].is_null()
           ? fixed(upper["value"].get<double>(), 6) +
                 (upper["certified"].get<bool>() ? "" : " (not certified: a layer's norm is a power-iteration estimate)")
           : "n/a: " + upper["unsupported"].get<std::string>());
  if (encoder == 0.0 && jacobian["max"].get<double>() == 0.0) {
    text << "  the model maps every image to one point (a fully collapsed encoder): its spread is 0, its Lipschitz\n"
            "  constant 0, and Theorem 3 is vacuous\n";
  }
  if (!o.out.empty()) text << "  wrote " << o.out << ".csv and .png\n";
  finish(text.str(), out, o.common, files);
  return 0;
}

void add_measure_options(CLI::App& c, MeasureOptions& o) {
  add_model_data_options(c, o.common, false);
  c.add_option("--samples", o.samples, "test images measured (0: all)")->capture_default_str();
  c.add_option("--reference-samples", o.reference_samples, "training images the mean classifier is fit on (0: all)")
      ->capture_default_str();
  add_shared_measure_options(c, o.measure);
}

int run_measure(const MeasureOptions& o) {
  // Saved embeddings: the same run as geomsim's without libtorch, with torch.save files readable.
  if (!o.measure.embeddings.empty()) {
    return run_measure_embeddings(train_experiments::embedding_measure_options(o), train_experiments::torch_embedding_readers(),
                                  o.common.quiet);
  }
  const json out = measure_run(o);
  OutputTransaction files;
  finish(measure_text(out), out, o.common, files);
  return 0;
}

}  // namespace geomsim::cli
