using System.Globalization;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// Command line of <c>manual [--documents N] [--json FILE] [--postgresql-only]</c>; the last runs
/// only the PostgreSQL provider comparison.
/// </summary>
public sealed record ManualOptions(int Documents, string? JsonPath, bool PostgreSqlOnly = false)
{
    public const int DefaultDocuments = 1000;

    /// <summary>Statuses cycle every four orders, so fewer would leave the "shipped" scan empty.</summary>
    public const int MinDocuments = 4;
    public const string Usage = "usage: BLite.Benchmarks manual [--documents N] [--json FILE] [--postgresql-only]";

    /// <summary>Parses the arguments after "manual"; false with a message naming the problem otherwise.</summary>
    public static bool TryParse(IReadOnlyList<string> args, out ManualOptions options, out string error)
    {
        var documents = DefaultDocuments;
        string? jsonPath = null;
        var postgreSqlOnly = false;
        options = new ManualOptions(documents, jsonPath);
        for (var i = 0; i < args.Count; i++)
        {
            var name = args[i];
            if (name == "--postgresql-only")
            {
                postgreSqlOnly = true;
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

        options = new ManualOptions(documents, jsonPath, postgreSqlOnly);
        error = "";
        return true;
    }
}
