namespace BLite;

/// <summary>A JSON filter is malformed or uses an operator BLite does not know; nothing was run.</summary>
public sealed class JsonFilterException : BLiteException
{
    public JsonFilterException(string message, long position, string? token = null)
        : base($"{message} (at offset {position} of the filter)")
    {
        Position = position;
        Token = token;
    }

    /// <summary>The offset, in UTF-8 bytes from the start of the filter text, of the offending token.</summary>
    public long Position { get; }

    /// <summary>The operator or field name involved, when there is one.</summary>
    public string? Token { get; }
}
