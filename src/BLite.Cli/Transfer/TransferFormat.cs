using BLite.Cli.Arguments;

namespace BLite.Cli.Transfer;

/// <summary>The file formats of <c>export</c> and <c>import</c>.</summary>
internal enum TransferFormat
{
    /// <summary>One Extended JSON document per line (docs/json.md).</summary>
    JsonLines,

    /// <summary>Standard BSON documents back to back, as mongodump writes them (docs/cli.md).</summary>
    Bson,
}

internal static class TransferFormats
{
    public const string OptionDescription = "jsonl (one JSON document per line) or bson (standard BSON, as mongodump/mongorestore use). Default: from the file extension (.bson is bson), else jsonl.";

    /// <summary>The format named by <c>--format</c>, or else implied by the file's extension.</summary>
    public static TransferFormat Resolve(string? option, string? path, string command) => option switch
    {
        null => path is not null && path.EndsWith(".bson", StringComparison.OrdinalIgnoreCase) ? TransferFormat.Bson : TransferFormat.JsonLines,
        "jsonl" or "json" => TransferFormat.JsonLines,
        "bson" => TransferFormat.Bson,
        _ => throw new UsageException($"unknown format '{option}'; use jsonl or bson.", command),
    };
}
