using System.Globalization;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// Command line of <c>manual [--documents N] [--json FILE] [--postgresql-only | --scans-only]</c>;
/// <c>--postgresql-only</c> runs only the PostgreSQL provider comparison, <c>--scans-only</c> only
/// the read scenarios (find-by-id and both status scans), which is what a read-path change needs
/// measured at 100k or 1M documents without loading every write scenario's stores.
/// </summary>
public sealed record ManualOptions(int Documents, string? JsonPath, bool PostgreSqlOnly = false, bool ScansOnly = false)
{
    public const int DefaultDocuments = 1000;

    /// <summary>Statuses cycle every four orders, so fewer would leave the "shipped" scan empty.</summary>
    public const int MinDocuments = 4;
    public const string Usage = "usage: BLite.Benchmarks manual [--documents N] [--json FILE] [--postgresql-only | --scans-only]";

    /// <summary>Parses the arguments after "manual"; false with a message naming the problem otherwise.</summary>
    public static bool TryParse(IReadOnlyList<string> args, out ManualOptions options, out string error)
    {
        var documents = DefaultDocuments;
        string? jsonPath = null;
        var postgreSqlOnly = false;
        var scansOnly = false;
        options = new ManualOptions(documents, jsonPath);
        for (var i = 0; i < args.Count; i++)
        {
            var name = args[i];
            if (name == "--postgresql-only")
            {
                postgreSqlOnly = true;
                continue;
            }

            if (name == "--scans-only")
            {
                scansOnly = true;
                continue;
            }

            if (name is not ("--documents" or "--json"))
            {
                error = $"unknown argument '{name}'";
                return false;
            }

            if (i + 1 >= args.Count)
            {
                error = $"{name} needs a value";
                return false;
            }

            var value = args[++i];
            if (name == "--json")
            {
                jsonPath = value;
            }
            else if (!int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out documents) || documents < MinDocuments)
            {
                error = $"--documents must be a whole number of at least {MinDocuments}, not '{value}'";
                return false;
            }
        }

        if (postgreSqlOnly && scansOnly)
        {
            error = "--postgresql-only and --scans-only cannot be combined";
            return false;
        }

        options = new ManualOptions(documents, jsonPath, postgreSqlOnly, scansOnly);
        error = "";
        return true;
    }
}
