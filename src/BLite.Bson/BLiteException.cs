namespace BLite;

/// <summary>The base of every error BLite raises on purpose: bad input, misuse, I/O failure.</summary>
public class BLiteException : Exception
{
    public BLiteException(string message) : base(message) { }

    public BLiteException(string message, Exception innerException) : base(message, innerException) { }
}
