using System.Numerics.Tensors;

namespace BLite.Core.Vectors;

/// <summary>
/// Distance kernels (SIMD through <see cref="TensorPrimitives"/>). Cosine vectors are stored
/// normalized, so cosine distance is one dot product, like the dot-product metric.
/// </summary>
internal static class VectorDistance
{
    public static float Compute(VectorMetric metric, ReadOnlySpan<float> query, ReadOnlySpan<float> stored) => metric switch
    {
        VectorMetric.Cosine => 1f - TensorPrimitives.Dot(query, stored),
        VectorMetric.DotProduct => -TensorPrimitives.Dot(query, stored),
        _ => TensorPrimitives.Distance(query, stored),
    };

    /// <summary>
    /// Checks a vector and writes the form the index stores and searches with (normalized for
    /// cosine). Throws <see cref="BLiteVectorException"/> naming <paramref name="subject"/>.
    /// </summary>
    public static void Prepare(VectorIndexDefinition index, ReadOnlySpan<float> vector, Span<float> destination, string subject)
    {
        if (vector.Length != index.Dimensions)
        {
            throw new BLiteVectorException(
                $"{subject} has {vector.Length} dimensions; vector index '{index.Name}' on '{index.FieldPath}' needs {index.Dimensions}.");
        }

        for (var i = 0; i < vector.Length; i++)
        {
            if (!float.IsFinite(vector[i]))
            {
                throw new BLiteVectorException(
                    $"{subject} has {vector[i]} at component {i}; vector index '{index.Name}' accepts only finite numbers.");
            }
        }

        vector.CopyTo(destination);
        if (index.Metric != VectorMetric.Cosine)
        {
            return;
        }

        var norm = TensorPrimitives.Norm(vector);
        if (norm == 0 || !float.IsFinite(norm))
        {
            throw new BLiteVectorException(
                $"{subject} has length {norm}; the cosine metric of vector index '{index.Name}' needs a non-zero vector of finite length.");
        }

        TensorPrimitives.Divide(destination, norm, destination);
    }
}
