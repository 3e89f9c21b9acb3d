"""geomsim.measure(): the report of `geomsim measure --embeddings`, as a dict with its JSON's keys.

The CLI reads the same points from .npy files (float64, so no rounding on the way); the dict
must equal the JSON's "geometry" to the last bit. `geomsim measure --embeddings` reads .npy files
with or without libtorch (issue 27), so these comparisons run in every build."""
import os
import tempfile

import numpy as np
import pytest

import geomsim


def two_subclass_embeddings(seed=3, per_subclass=40, d=16):
    """Unit embeddings of 3 classes with two subclasses each (Theorem 3 applies to every class)."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(6, d))
    subclasses = np.repeat(np.arange(6), per_subclass)
    X = centres[subclasses] + 0.6 * rng.normal(size=(len(subclasses), d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    return X, subclasses // 2, subclasses


def cli_measure(cli, X, labels, subclasses, *flags):
    """The CLI's JSON for embeddings written with np.save."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for name, array in (("z.npy", X), ("y.npy", labels), ("s.npy", subclasses)):
            paths.append(os.path.join(tmp, name))
            np.save(paths[-1], array)
        return cli.json("measure", "--embeddings", paths[0], "--labels", paths[1], "--subclasses", paths[2], *flags)


def test_measure_equals_the_cli_json_bit_for_bit(cli):
    X, labels, subclasses = two_subclass_embeddings()
    expected = cli_measure(cli, X, labels, subclasses, "--gamma", "1.2", "--seed", "5")
    assert geomsim.measure(X, labels, subclasses, gamma=1.2, seed=5) == expected["geometry"]


def test_measure_reports_the_theory_only_where_it_applies():
    X, labels, subclasses = two_subclass_embeddings()
    g = geomsim.measure(X, labels, subclasses)
    assert [c["theorem3_applies"] for c in g["theorem3_classes"]] == [True] * 3
    assert g["subclass_pairs"] == 6  # ordered pairs (z, z') inside each class
    # class 0 takes subclass 2 too (three subclasses), class 1 keeps subclass 3 alone: no
    # Theorem 3 for either, each with its reason; class 2 keeps its pair.
    moved = np.where(subclasses == 2, 0, labels)
    g = geomsim.measure(X, moved, subclasses)
    applies = [(c["subclasses"], c["theorem3_applies"]) for c in g["theorem3_classes"]]
    assert applies == [(3, False), (1, False), (2, True)]
    assert "exactly two" in g["theorem3_classes"][0]["reason"] and "one subclass" in g["theorem3_classes"][1]["reason"]
    assert g["subclass_pairs"] == 2


def test_measure_of_the_collapsed_simplex():
    # Each class one point of the simplex: s_f(y) = 0 for every class, so sigma/s is undefined
    # (None, as null in the JSON), NC1 is 0 and the class means' cosines are -1/(K-1).
    K = 4
    simplex = np.eye(K) - 1.0 / K
    simplex /= np.linalg.norm(simplex, axis=1, keepdims=True)
    labels = np.repeat(np.arange(K), 5)
    X = simplex[labels]
    g = geomsim.measure(X, labels, labels)
    assert g["spread"] == 0.0 and g["sigma_over_spread"] is None and g["sigma_over_spread_max"] is None
    assert g["neural_collapse_classes"]["nc1"] == pytest.approx(0.0, abs=1e-15)
    assert g["neural_collapse_classes"]["nc2_equiangularity"] == pytest.approx(0.0, abs=1e-14)


def test_measure_float32_and_strided_inputs_give_the_float64_result():
    X, labels, subclasses = two_subclass_embeddings()
    X32 = X.astype(np.float32)
    assert geomsim.measure(X32, labels, subclasses) == geomsim.measure(X32.astype(np.float64), labels, subclasses)
    wide = np.zeros((X.shape[0], 2 * X.shape[1]))
    wide[:, ::2] = X
    assert geomsim.measure(wide[:, ::2], labels, subclasses) == geomsim.measure(X, labels, subclasses)


@pytest.mark.parametrize("kwargs, argument", [
    ({"labels": np.zeros(3, dtype=int)}, "labels"),
    ({"subclasses": np.zeros(3, dtype=int)}, "subclasses"),
    ({"gamma": 1.0}, "gamma"),
    ({"reference": np.ones((4, 16))}, "reference"),
    ({"predictions": np.zeros(5, dtype=int)}, "predictions"),
])
def test_measure_refuses_bad_arguments_by_name(kwargs, argument):
    X, labels, subclasses = two_subclass_embeddings()
    args = {"embeddings": X, "labels": labels, "subclasses": subclasses, **kwargs}
    with pytest.raises(geomsim.InvalidArgument, match="^" + argument + " ") as error:
        geomsim.measure(**args)
    assert error.value.argument == argument and "--" not in str(error.value)


def test_measure_names_python_parameters_not_cli_flags():
    """The core's metrics name the subclasses subclass_labels and the CLI's messages name flags
    (--embeddings); Python's errors name the function's own parameters."""
    X, labels, subclasses = two_subclass_embeddings()
    spanning = subclasses.copy()
    spanning[0] = 2  # subclass 2 then holds a point of class 0 and the points of class 1
    with pytest.raises(geomsim.InvalidArgument) as error:
        geomsim.measure(X, labels, spanning)
    assert error.value.argument == "subclasses"
    assert str(error.value).startswith("subclasses ") and "subclass_labels" not in str(error.value)
    with pytest.raises(geomsim.InvalidArgument) as error:
        geomsim.measure(X, labels, subclasses, reference=X)
    assert str(error.value) == "reference and reference_subclasses go together"
    with pytest.raises(geomsim.InvalidArgument) as error:
        geomsim.measure(X, labels, subclasses, reference=X, reference_subclasses=subclasses[:-1])
    assert error.value.argument == "reference_subclasses" and "--" not in str(error.value)


class FakeTensor:
    """Anything with .detach and .requires_grad, as a torch tensor has."""
    requires_grad = True

    def detach(self):
        return self

    def __array__(self, dtype=None):
        raise RuntimeError("Can't call numpy() on Tensor that requires grad.")


def test_a_tensor_is_a_type_error_that_says_what_to_do():
    X, labels, subclasses = two_subclass_embeddings()
    for call in (lambda: geomsim.measure(FakeTensor(), labels, subclasses), lambda: geomsim.uniformity(FakeTensor())):
        with pytest.raises(TypeError) as error:
            call()
        message = str(error.value)
        assert message.startswith("embeddings must be a numpy array, got a ") and "FakeTensor" in message, message
        assert message.endswith("pass embeddings.detach().cpu().numpy()"), message
    with pytest.raises(TypeError, match=r"^subclasses must be a numpy array, .*subclasses\.detach\(\)\.cpu\(\)\.numpy\(\)"):
        geomsim.measure(X, labels, FakeTensor())


def test_a_torch_tensor_that_requires_grad_is_a_type_error():
    torch = pytest.importorskip("torch")
    X, labels, subclasses = two_subclass_embeddings()
    z = torch.tensor(X, requires_grad=True)
    with pytest.raises(TypeError, match=r"^embeddings must be a numpy array, got a torch\.Tensor; pass embeddings\.detach\(\)\.cpu\(\)\.numpy\(\)$"):
        geomsim.measure(z, labels, subclasses)
    assert geomsim.measure(z.detach().cpu().numpy(), labels, subclasses) == geomsim.measure(X, labels, subclasses)
