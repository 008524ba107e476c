using BLite.Cli.Arguments;
using BLite.Cli.Database;
using BLite.Cli.Migration;
using Npgsql;

namespace BLite.Cli.Commands;

/// <summary>Moves a database between a BLite file and PostgreSQL (the BLite.PostgreSql provider's tables), either way.</summary>
internal sealed class MigrateCommand : Command
{
    public override string Name => "migrate";

    public override string Summary => "Move a database file to PostgreSQL, or a PostgreSQL database back to a file.";

    public override IReadOnlyList<ArgumentSpec> Arguments =>
    [
        new ArgumentSpec("from", "A database file, or a PostgreSQL URL / connection string."),
        new ArgumentSpec("to", "A PostgreSQL URL / connection string, or a database file (created if missing)."),
    ];

    public override IReadOnlyList<OptionSpec> Options =>
    [
        new OptionSpec("batch-size", "n", "Documents per committed batch (default 5000)."),
    ];

    public override string Details =>
        """
        Copies every collection with its indexes, in the form the BLite.PostgreSql provider reads
        (docs/postgresql.md), so the same DocumentDbContext opens the result with UsePostgreSql, or
        with a path after moving back. Batches commit one by one and skip ids already present:
        an interrupted move resumes when run again, and a finished one run again changes nothing.
        Afterwards every collection is verified: equal counts, and a sample of documents spread over
        the collection equal byte for byte (in canonical field order, since jsonb orders keys itself).

        Examples:
          blite migrate shop.blite "postgresql://shop:secret@db.internal:5432/shop"
          blite migrate "postgresql://shop@localhost/shop?search_path=tenant1" copy.blite
        """;

    public override int Execute(ParsedArguments arguments, CommandContext context)
    {
        var from = arguments.Positional(0)!;
        var to = arguments.Positional(1) ?? throw new UsageException("give where to move the database: a PostgreSQL URL or a file.", Name);
        var batchSize = (int)Math.Clamp(arguments.NonNegativeInteger("batch-size", 5000), 1, 1_000_000);
        var toServer = PostgreSqlAddress.IsPostgreSql(to);
        if (toServer == PostgreSqlAddress.IsPostgreSql(from))
        {
            throw new UsageException("one side must be a database file and the other a PostgreSQL database.", Name);
        }

        string connectionString;
        try
        {
            connectionString = PostgreSqlAddress.ToConnectionString(toServer ? to : from);
        }
        catch (Exception exception) when (exception is ArgumentException or FormatException or UriFormatException)
        {
            throw new UsageException("bad PostgreSQL address: " + exception.Message, Name);
        }

        using var server = NpgsqlDataSource.Create(connectionString);
        using var file = toServer ? DatabaseFiles.OpenForReading(from) : DatabaseFiles.OpenOrCreate(to, Durability.Normal);
        List<MigratedCollection> moved;
        try
        {
            moved = toServer ? new FileToPostgreSql(file, server, context, batchSize).Run() : new PostgreSqlToFile(server, file, context, batchSize).Run();
        }
        catch (Exception exception) when (exception is NpgsqlException or NotSupportedException)
        {
            throw new CommandException("migration stopped (batches already committed are kept; run the command again to resume): " + exception.Message, exception);
        }

        if (!toServer)
        {
            file.Checkpoint();
        }

        foreach (var collection in moved)
        {
            var problem = MigrationVerifier.Verify(file, server, collection.Name, out var sampled);
            if (problem is not null)
            {
                throw new CommandException("verification failed: " + problem, ExitCodes.Error);
            }

            context.Output.WriteLine($"'{collection.Name}': {collection.SourceCount} document(s), {collection.Inserted} copied now, {collection.SourceCount - collection.Inserted} already there; verified (counts equal, {sampled} sampled document(s) identical)");
        }

        context.Output.WriteLine($"moved {moved.Count} collection(s) {(toServer ? "to PostgreSQL" : "to " + to)}");
        return ExitCodes.Ok;
    }
}
