namespace BLite;

/// <summary>
/// A vector cannot be indexed or searched with: wrong number of dimensions, a NaN or infinite
/// component, a zero vector under the cosine metric, or a value at the vector path that is not a
/// float32 vector; or a vector index declared with an unknown metric or parameters out of range.
/// The write that raised it changed nothing.
/// </summary>
public sealed class BLiteVectorException : BLiteException
{
    public BLiteVectorException(string message)
        : base(message)
    {
    }
}
