namespace BLite.Bson;

/// <summary>
/// A BSON regular expression (type 0x0B): a pattern and its option letters, both kept exactly as
/// given (BSON stores them as C strings, so neither may contain a NUL character).
/// </summary>
public sealed record BsonRegex
{
    public BsonRegex(string pattern, string options = "")
    {
        ArgumentNullException.ThrowIfNull(pattern);
        ArgumentNullException.ThrowIfNull(options);
        if (pattern.Contains('\0') || options.Contains('\0'))
        {
            throw new ArgumentException("A BSON regular expression's pattern and options cannot contain a NUL character.");
        }

        Pattern = pattern;
        Options = options;
    }

    public string Pattern { get; }

    /// <summary>Option letters (MongoDB uses i, l, m, s, u, x and writes them in alphabetical order).</summary>
    public string Options { get; }

    public override string ToString() => $"/{Pattern}/{Options}";
}
