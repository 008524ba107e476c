namespace BLite;

/// <summary>How a vector index measures how far apart two vectors are (smaller is nearer).</summary>
public enum VectorMetric : byte
{
    /// <summary>1 − cosine similarity, in [0, 2]. Vectors are normalized when indexed; a zero vector is refused.</summary>
    Cosine = 0,

    /// <summary>The negated dot product, so the largest inner product is the nearest.</summary>
    DotProduct = 1,

    /// <summary>The Euclidean (L2) distance.</summary>
    Euclidean = 2,
}
