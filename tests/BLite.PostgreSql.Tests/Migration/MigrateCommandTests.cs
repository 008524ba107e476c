using System.Diagnostics;
using BLite.PostgreSql.Tests.Infrastructure;
using BLite.PostgreSql.Tests.Model;
using BLite.PostgreSql.Tests.Storage;
using BLite.Testing;
using Npgsql;

namespace BLite.PostgreSql.Tests.Migration;

[Collection(PostgresCollection.Name)]
public sealed class MigrateCommandTests(PostgresCluster cluster)
{
    [Fact]
    public void A_file_moves_to_PostgreSQL_and_back_with_identical_documents_and_working_indexes()
    {
        using var directory = new TempDirectory();
        using var server = new ProviderDatabase(cluster, Provider.PostgreSql);
        var source = directory.File("source.blite");
        var orders = new List<Order>();
        using (var context = new ProviderContext(new DocumentDbContextOptions { Path = source, Durability = Durability.Normal }))
        {
            for (var i = 0; i < 1200; i++)
            {
                var order = CrudTests.NewOrder("N-" + i, i + "@x");
                order.Status = i % 4 == 0 ? "shipped" : "pending";
                orders.Add(order);
            }

            context.Orders.InsertMany(orders);
            context.Probes.Insert(FidelityTests.Probe());
            context.Counters.Insert(new Counter { Name = "c", Value = long.MinValue });
        }

        var (exit, output) = Run("migrate", source, server.ConnectionString, "--batch-size", "500");

        Assert.True(exit == 0, output);
        Assert.Contains("'orders': 1200 document(s), 1200 copied now, 0 already there; verified", output, StringComparison.Ordinal);
        using (var onServer = new ProviderContext(server.Options()))
        {
            AssertSameDocuments(orders, onServer);
            Assert.Contains("orders_ix_Status", onServer.Orders.Query().Where(o => o.Status == "shipped").Explain(), StringComparison.Ordinal);
            Assert.Equal(long.MinValue, onServer.Counters.FindById(1)!.Value);
            Assert.Equal(2, onServer.Counters.Insert(new Counter { Name = "after the move" }));
            Assert.True(onServer.Counters.Delete(2));
        }

        // Interrupted half way: run again, the missing rows are copied and nothing else changes.
        Execute(server.ConnectionString, "DELETE FROM orders WHERE doc->>'Status' = 'shipped'");
        (exit, output) = Run("migrate", source, "postgresql:///postgres?host=" + Host(server) + "&port=" + Port(server) + "&user=blite&search_path=" + SearchPath(server));
        Assert.True(exit == 0, output);
        Assert.Contains("'orders': 1200 document(s), 300 copied now, 900 already there; verified", output, StringComparison.Ordinal);

        var back = directory.File("back.blite");
        (exit, output) = Run("migrate", server.ConnectionString, back);
        Assert.True(exit == 0, output);
        Assert.Contains("moved 3 collection(s)", output, StringComparison.Ordinal);
        using var onFile = new ProviderContext(new DocumentDbContextOptions { Path = back });
        AssertSameDocuments(orders, onFile);
        Assert.Equal(MapperBytes.Of(onFile.Probes.Mapper, FidelityTests.Probe()), MapperBytes.Of(onFile.Probes.Mapper, onFile.Probes.FindById("probe-1")!));
        Assert.Contains("ix_Status", onFile.Orders.Query().Where(o => o.Status == "shipped").Explain(), StringComparison.Ordinal);
        Assert.Equal(2, onFile.Counters.Insert(new Counter { Name = "after the move back" }));
    }

    /// <summary>
    /// A database of <c>BLITE_MIGRATE_DOCUMENTS</c> orders (100,000 on demand; 5,000 in CI) moves
    /// to PostgreSQL and back to a new file, and every document of the final file has exactly the
    /// bytes of the original.
    /// </summary>
    [Fact]
    public void A_large_database_moves_there_and_back_with_every_document_identical()
    {
        var count = int.TryParse(Environment.GetEnvironmentVariable("BLITE_MIGRATE_DOCUMENTS"), out var configured) && configured > 0 ? configured : 5_000;
        using var directory = new TempDirectory();
        using var server = new ProviderDatabase(cluster, Provider.PostgreSql);
        var source = directory.File("large.blite");
        var random = new Random(2121);
        using (var context = new ProviderContext(new DocumentDbContextOptions { Path = source, Durability = Durability.Normal }))
        {
            for (var batch = 0; batch < count; batch += 10_000)
            {
                var orders = new List<Order>();
                for (var i = batch; i < Math.Min(count, batch + 10_000); i++)
                {
                    orders.Add(VariedOrder(i, random));
                }

                context.Orders.InsertMany(orders);
            }
        }

        var (exit, output) = Run("migrate", source, server.ConnectionString, "--batch-size", "2000");
        Assert.True(exit == 0, output);
        Assert.Contains($"'orders': {count} document(s), {count} copied now, 0 already there; verified", output, StringComparison.Ordinal);

        var back = directory.File("back.blite");
        (exit, output) = Run("migrate", server.ConnectionString, back);
        Assert.True(exit == 0, output);

        using var original = new ProviderContext(new DocumentDbContextOptions { Path = source, ReadOnly = true });
        using var copy = new ProviderContext(new DocumentDbContextOptions { Path = back, ReadOnly = true });
        var compared = 0;
        using var copies = copy.Orders.Query().OrderBy(o => o.Id).AsEnumerable().GetEnumerator();
        foreach (var order in original.Orders.Query().OrderBy(o => o.Id))
        {
            Assert.True(copies.MoveNext(), $"the copy ends after {compared} documents");
            // One mapper for both: field ids come from a file's own dictionary.
            Assert.Equal(MapperBytes.Of(copy.Orders.Mapper, order), MapperBytes.Of(copy.Orders.Mapper, copies.Current));
            compared++;
        }

        Assert.False(copies.MoveNext(), "the copy holds more documents than the original");
        Assert.Equal(count, compared);
    }

    private static readonly string[] Statuses = ["pending", "confirmed", "shipped", "delivered"];

    private static Order VariedOrder(int i, Random random) => new()
    {
        Number = "N-" + i,
        Status = Statuses[random.Next(Statuses.Length)],
        Total = decimal.Round((decimal)random.NextDouble() * 10_000, random.Next(5)),
        PlacedAt = new DateTime(2020, 1, 1, 0, 0, 0, (DateTimeKind)random.Next(3)).AddTicks(random.NextInt64(TimeSpan.TicksPerDay * 2000)),
        Customer = new Contact { Name = "Customer \u00e9 " + random.Next(1000), Email = i + "@x" },
        Lines = Enumerable.Range(0, random.Next(6)).Select(l => new Line { Sku = "sku-" + random.Next(100), Quantity = random.Next(-5, 50) }).ToList(),
        Tags = Enumerable.Range(0, random.Next(3)).Select(t => "tag" + random.Next(10)).ToList(),
        Note = random.Next(3) == 0 ? null : "note \"" + i + "\"",
        Priority = random.Next(4) == 0 ? null : random.Next(-3, 3),
        Weight = random.Next(10) == 0 ? -0.0 : random.NextDouble() * Math.Pow(10, random.Next(-5, 20)),
        Sequence = random.NextInt64(long.MinValue, long.MaxValue),
    };

    /// <summary>A schemaless collection on PostgreSQL (any _id types) is in the catalog, so it moves back to a file with the typed ones.</summary>
    [Fact]
    public void A_schemaless_collection_moves_back_from_PostgreSQL_with_its_ids()
    {
        using var directory = new TempDirectory();
        using var server = new ProviderDatabase(cluster, Provider.PostgreSql);
        var documents = new[]
        {
            BsonDocument.Parse("""{ "_id": 1, "kind": "int id", "n": { "$numberDecimal": "1.50" } }"""),
            BsonDocument.Parse("""{ "_id": "b", "kind": "string id", "tags": ["x", "y"] }"""),
            BsonDocument.Parse("""{ "_id": { "$numberLong": "-7" }, "kind": "long id", "at": { "$date": "2024-05-01T10:00:00Z" }, "sub": { "b": 1, "a": 2 } }"""),
            BsonDocument.Parse("""{ "kind": "generated id" }"""),
        };
        using (var context = new ProviderContext(server.Options()))
        {
            Assert.Equal(4, context.Database.GetCollection("events").InsertMany(documents));
        }

        var back = directory.File("back.blite");
        var (exit, output) = Run("migrate", server.ConnectionString, back);

        Assert.True(exit == 0, output);
        Assert.Contains("'events': 4 document(s), 4 copied now, 0 already there; verified", output, StringComparison.Ordinal);
        using var onFile = new ProviderContext(new DocumentDbContextOptions { Path = back });
        var events = onFile.Database.GetCollection("events");
        Assert.Equal(4, events.Count());
        foreach (var document in documents)
        {
            Assert.Equal(Schemaless.SchemalessJson.Sorted(document), Schemaless.SchemalessJson.Sorted(events.FindById(document["_id"])!));
        }
    }

    [Fact]
    public void Moving_from_a_database_without_BLite_collections_fails_clearly()
    {
        using var directory = new TempDirectory();
        using var server = new ProviderDatabase(cluster, Provider.PostgreSql);

        var (exit, output) = Run("migrate", server.ConnectionString, directory.File("x.blite"));

        Assert.NotEqual(0, exit);
        Assert.Contains("no BLite collections", output, StringComparison.Ordinal);
    }

    private static void AssertSameDocuments(List<Order> orders, ProviderContext context)
    {
        Assert.Equal(orders.Count, context.Orders.Count());
        foreach (var order in orders)
        {
            var copy = context.Orders.FindById(order.Id);
            Assert.NotNull(copy);
            Assert.Equal(MapperBytes.Of(context.Orders.Mapper, order), MapperBytes.Of(context.Orders.Mapper, copy));
        }
    }

    /// <summary>Runs the built blite tool of the same configuration as these tests, as a user would.</summary>
    private static (int Exit, string Output) Run(params string[] args)
    {
        var testOutput = new DirectoryInfo(AppContext.BaseDirectory.TrimEnd(Path.DirectorySeparatorChar));
        var tool = Path.Combine(PostgresCluster.RepositoryRoot(), "src", "BLite.Cli", "bin", testOutput.Parent!.Name, testOutput.Name, "BLite.Cli.dll");
        var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, RedirectStandardInput = true };
        start.ArgumentList.Add(tool);
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        using var process = Process.Start(start)!;
        process.StandardInput.Close();
        var error = process.StandardError.ReadToEndAsync();
        var output = process.StandardOutput.ReadToEnd();
        process.WaitForExit();
        return (process.ExitCode, output + error.Result);
    }

    private static string Host(ProviderDatabase server) => new NpgsqlConnectionStringBuilder(server.ConnectionString).Host!;

    private static int Port(ProviderDatabase server) => new NpgsqlConnectionStringBuilder(server.ConnectionString).Port;

    private static string SearchPath(ProviderDatabase server) => new NpgsqlConnectionStringBuilder(server.ConnectionString).SearchPath!;

    private static void Execute(string connectionString, string sql)
    {
        using var connection = new NpgsqlConnection(connectionString);
        connection.Open();
        using var command = new NpgsqlCommand(sql, connection);
        command.ExecuteNonQuery();
    }
}
