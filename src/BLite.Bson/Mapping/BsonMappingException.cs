namespace BLite.Bson.Mapping;

/// <summary>
/// A document cannot be converted between its .NET type and C-BSON: a stored value of the wrong
/// type or out of range, an unknown discriminator, an object graph that is cyclic or too deep.
/// </summary>
public sealed class BsonMappingException : BLiteException
{
    public BsonMappingException(string message)
        : base(message)
    {
    }

    public BsonMappingException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
