using BLite.PostgreSql.Tests.Infrastructure;
using BLite.PostgreSql.Tests.Model;
using Npgsql;

namespace BLite.PostgreSql.Tests.Storage;

/// <summary>The stored jsonb is the documented form (docs/postgresql.md) and SQL can compare it.</summary>
[Collection(PostgresCollection.Name)]
public sealed class JsonbRepresentationTests(PostgresCluster cluster)
{
    [Fact]
    public void Values_are_stored_in_the_documented_jsonb_form()
    {
        using var database = new ProviderDatabase(cluster, Provider.PostgreSql);
        using (var context = new ProviderContext(database.Options()))
        {
            context.Probes.Insert(FidelityTests.Probe());
        }

        using var connection = new NpgsqlConnection(database.ConnectionString);
        connection.Open();
        string Field(string expression)
        {
            using var command = new NpgsqlCommand($"SELECT ({expression})::text FROM \"Probes\"", connection);
            return (string)command.ExecuteScalar()!;
        }

        Assert.Equal("-7", Field("doc->'Small'"));
        Assert.Equal("3.0", Field("doc->'Whole'"));
        Assert.Equal("{\"$decimal\": 1.50}", Field("doc->'Money'"));
        Assert.Equal("{\"$ulong\": 18446744073709551615}", Field("doc->'Huge'"));
        Assert.Equal("{\"$double\": \"-0\"}", Field("doc->'NegativeZero'"));
        Assert.Equal("{\"$date\": \"2024-02-29T23:59:59.1234567\", \"$kind\": 1}", Field("doc->'Utc'"));
        Assert.Equal("{\"$uuid\": \"00112233-4455-6677-8899-aabbccddeeff\"}", Field("doc->'Key'"));
        Assert.Equal("a field whose name starts with $", Field("doc->>'$$dollar'"));
        Assert.Equal("dog", Field("doc->'Pet'->>'_t'"));
        // Numbers compare as numbers, dates as their fixed-width text.
        Assert.Equal("true", Field("(doc->'Money'->'$decimal')::numeric > 1.4999 AND (doc->>'Tiny')::numeric > 0"));
        Assert.Equal("true", Field("doc->'Utc'->>'$date' > '2024-02-29T23:59:59.1234566'"));
    }

    [Fact]
    public void The_catalog_lists_each_collection_with_its_id_type_and_declared_indexes()
    {
        using var database = new ProviderDatabase(cluster, Provider.PostgreSql);
        using (new ProviderContext(database.Options()))
        {
        }

        using var connection = new NpgsqlConnection(database.ConnectionString);
        connection.Open();
        using var command = new NpgsqlCommand("SELECT id_type || ' ' || (indexes->1->>'name') || ' ' || (indexes->1->>'unique') FROM blite_collections WHERE name = 'orders'", connection);

        Assert.Equal("ObjectId ix_Customer.Email true", command.ExecuteScalar());
    }
}
