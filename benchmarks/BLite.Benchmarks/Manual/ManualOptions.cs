using System.Globalization;
using BLite.Benchmarks.Engines;
using BLite.Benchmarks.Engines.LiteDb;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// Command line of <c>manual [--documents N] [--json FILE] [--postgresql-only | --scans-only] [--engine NAME] [--commit-latency N [--profile-tails]]</c>;
/// <c>--postgresql-only</c> runs only the PostgreSQL provider comparison, <c>--scans-only</c> only
/// the read scenarios (find-by-id and both status scans), which is what a read-path change needs
/// measured at 100k or 1M documents without loading every write scenario's stores.
/// <c>--engine</c> runs one engine alone, so the memory peaks printed at the end are that engine's.
/// <c>--commit-latency</c> runs only the commit latency distribution over N single inserts (<see cref="CommitLatency"/>);
/// <c>--profile-tails</c> adds the slowest 20 of those commits one by one, with what each overlapped (<see cref="CommitTailProfile"/>).
/// </summary>
public sealed record ManualOptions(int Documents, string? JsonPath, bool PostgreSqlOnly = false, bool ScansOnly = false, string? Engine = null, int CommitLatencyInserts = 0, bool ProfileTails = false)
{
    public const int DefaultDocuments = 1000;

    /// <summary>Statuses cycle every four orders, so fewer would leave the "shipped" scan empty.</summary>
    public const int MinDocuments = 4;

    /// <summary>
    /// Above this size LiteDB is left out: at 100k documents one of its status scans already takes
    /// about 10 s and loading it several minutes, so at 1M it alone would break the 10-minute budget.
    /// </summary>
    public const int LiteDbMaxDocuments = 100_000;

    public const string Usage = "usage: BLite.Benchmarks manual [--documents N] [--json FILE] [--postgresql-only | --scans-only] [--engine NAME] [--commit-latency N [--profile-tails]]";

    /// <summary>Whether <paramref name="engine"/> takes part in this run, and if not, why.</summary>
    public bool Includes(string engine, out string reason)
    {
        if (Engine is not null && Engine != engine)
        {
            reason = $"--engine {Engine} runs that engine alone";
            return false;
        }

        if (engine == LiteDbOrderStore.EngineName && Documents > LiteDbMaxDocuments && Engine is null)
        {
            reason = $"LiteDB is left out above {LiteDbMaxDocuments:N0} documents: it cannot finish within the run's 10-minute budget (pass --engine LiteDB to run it alone)";
            return false;
        }

        reason = "";
        return true;
    }

    /// <summary>Parses the arguments after "manual"; false with a message naming the problem otherwise.</summary>
    public static bool TryParse(IReadOnlyList<string> args, out ManualOptions options, out string error)
    {
        var documents = DefaultDocuments;
        string? jsonPath = null;
        var postgreSqlOnly = false;
        var scansOnly = false;
        string? engine = null;
        var latencyInserts = 0;
        var profileTails = false;
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

            if (name == "--profile-tails")
            {
                profileTails = true;
                continue;
            }

            if (name is not ("--documents" or "--json" or "--engine" or "--commit-latency"))
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
            else if (name == "--engine")
            {
                if (!OrderStores.All.Any(factory => factory.Engine == value))
                {
                    error = $"--engine must name one of {string.Join(", ", OrderStores.All.Select(factory => factory.Engine))}, not '{value}'";
                    return false;
                }

                engine = value;
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

        if (postgreSqlOnly && scansOnly)
        {
            error = "--postgresql-only and --scans-only cannot be combined";
            return false;
        }

        if (profileTails && latencyInserts == 0)
        {
            error = "--profile-tails profiles the --commit-latency run; give --commit-latency N too";
            return false;
        }

        options = new ManualOptions(documents, jsonPath, postgreSqlOnly, scansOnly, engine, latencyInserts, profileTails);
        error = "";
        return true;
    }
}
