using System.Globalization;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// Command line of <c>manual [--documents N] [--json FILE] [--postgresql-only] [--commit-latency N]</c>;
/// <c>--postgresql-only</c> runs only the PostgreSQL provider comparison, <c>--commit-latency</c>
/// only the commit latency distribution over N single inserts (<see cref="CommitLatency"/>).
/// </summary>
public sealed record ManualOptions(int Documents, string? JsonPath, bool PostgreSqlOnly = false, int CommitLatencyInserts = 0)
{
    public const int DefaultDocuments = 1000;

    /// <summary>Statuses cycle every four orders, so fewer would leave the "shipped" scan empty.</summary>
    public const int MinDocuments = 4;
    public const string Usage = "usage: BLite.Benchmarks manual [--documents N] [--json FILE] [--postgresql-only] [--commit-latency N]";

    /// <summary>Parses the arguments after "manual"; false with a message naming the problem otherwise.</summary>
    public static bool TryParse(IReadOnlyList<string> args, out ManualOptions options, out string error)
    {
        var documents = DefaultDocuments;
        string? jsonPath = null;
        var postgreSqlOnly = false;
        var latencyInserts = 0;
        options = new ManualOptions(documents, jsonPath);
        for (var i = 0; i < args.Count; i++)
        {
            var name = args[i];
            if (name == "--postgresql-only")
            {
                postgreSqlOnly = true;
                continue;
            }

            if (name is not ("--documents" or "--json" or "--commit-latency"))
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
            else if (name == "--commit-latency")
            {
                if (!int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out latencyInserts) || latencyInserts < 1)
                {
                    error = $"--commit-latency must be a whole number of at least 1, not '{value}'";
                    return false;
                }
            }
            else if (!int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out documents) || documents < MinDocuments)
            {
                error = $"--documents must be a whole number of at least {MinDocuments}, not '{value}'";
                return false;
            }
        }

        options = new ManualOptions(documents, jsonPath, postgreSqlOnly, latencyInserts);
        error = "";
        return true;
    }
}
