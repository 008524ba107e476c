using System.Text.Json;
using BLite.Benchmarks.Engines.BLiteEngine;
using BLite.Benchmarks.Workload;
using BLite.Bson;
using Dapper;
using Microsoft.Data.Sqlite;

namespace BLite.Benchmarks.Query;

/// <summary>One engine doing the projection and aggregate scenarios (docs/query.md section 5); each call returns a checksum.</summary>
public interface IProjectionPeer : IDisposable
{
    string Engine { get; }

    /// <summary>Status and Total of one order by id.</summary>
    decimal ProjectById(ObjectId id);

    /// <summary>Id and Total of every shipped order, through a Status index.</summary>
    decimal ScanProject();

    /// <summary>The total per status over the whole collection.</summary>
    decimal SumByStatus();

    /// <summary>The distinct statuses of the whole collection (an index on Status answers it), as the sum of their lengths.</summary>
    decimal DistinctStatuses();
}

/// <summary>BLite in memory with an index on Status; <paramref name="prepared"/> picks <c>Project(...).FindById</c> over LINQ for the lookup.</summary>
public sealed class BLiteProjectionPeer(IReadOnlyList<CustomerOrder> orders, bool prepared) : IProjectionPeer
{
    private readonly IndexedBenchOrdersContext _db = Populate(orders);
    private DocumentProjection<ObjectId, CustomerOrder, StatusAndTotal>? _statusAndTotal;

    public string Engine => prepared ? "BLite" : "BLite LINQ";

    public decimal ProjectById(ObjectId id)
    {
        if (prepared)
        {
            var card = (_statusAndTotal ??= _db.Orders.Project(o => new StatusAndTotal(o.Status, o.Total))).FindById(id)!;
            return card.Status.Length > 0 ? card.Total : 0;
        }

        return ProjectByIdThroughLinq(id);
    }

    /// <summary>The whole order by id (lookup and deserialization), for the comparison with MemoryPack's deserializer.</summary>
    public decimal FindWholeById(ObjectId id) => _db.Orders.FindById(id)!.Total;

    /// <summary>The prepared lookup into an anonymous type: generated code cannot name it, so it keeps the row path (boxed row, <c>ConstructorInvoker</c>).</summary>
    public decimal ProjectByIdThroughRows(ObjectId id) => (_throughRows ??= RowPathLookup())(id);

    private Func<ObjectId, decimal>? _throughRows;

    private Func<ObjectId, decimal> RowPathLookup()
    {
        var lookup = _db.Orders.Project(o => new { o.Status, o.Total });
        return id =>
        {
            var row = lookup.FindById(id)!;
            return row.Status.Length > 0 ? row.Total : 0;
        };
    }

    // A separate method: the lambda capturing id makes C# allocate its closure on entry to the
    // method that declares it, which would charge the prepared lookup 32 B it does not spend.
    private decimal ProjectByIdThroughLinq(ObjectId id)
    {
        var row = _db.Orders.Query().Where(o => o.Id == id).Select(o => new { o.Status, o.Total }).First();
        return row.Status.Length > 0 ? row.Total : 0;
    }

    public decimal ScanProject()
    {
        var total = 0m;
        foreach (var row in _db.Orders.Query().Where(o => o.Status == "shipped").Select(o => new { o.Id, o.Total }))
        {
            total += row.Id != default ? row.Total : 0;
        }

        return total;
    }

    public decimal SumByStatus()
    {
        var total = 0m;
        foreach (var group in _db.Orders.Query().GroupBy(o => o.Status).Select(g => new { g.Key, Total = g.Sum(o => o.Total) }))
        {
            total += group.Total;
        }

        return total;
    }

    public decimal DistinctStatuses()
    {
        var total = 0m;
        foreach (var status in _db.Orders.Query().Select(o => o.Status).Distinct())
        {
            total += status.Length;
        }

        return total;
    }

    /// <summary>The whole document by id, for reference beside the projected lookup.</summary>
    public decimal FindById(ObjectId id)
    {
        var order = _db.Orders.FindById(id)!;
        return order.Status.Length > 0 ? order.Total : 0;
    }

    public void Dispose() => _db.Dispose();

    private static IndexedBenchOrdersContext Populate(IReadOnlyList<CustomerOrder> orders)
    {
        var db = new IndexedBenchOrdersContext(DocumentDbContextOptions.ForMemory());
        db.Orders.InsertMany(orders);
        return db;
    }

    public sealed record StatusAndTotal(string Status, decimal Total);
}

/// <summary>SQLite + JSON in memory doing the same with <c>json_extract</c>, an index on a generated Status column, prepared statements.</summary>
public sealed class SqliteProjectionPeer : IProjectionPeer
{
    private readonly SqliteConnection _connection;
    private readonly SqliteCommand _projectById;
    private readonly SqliteParameter _id;
    private readonly SqliteCommand _scanProject;
    private readonly SqliteCommand _sumByStatus;
    private readonly SqliteCommand _distinctStatuses;

    public SqliteProjectionPeer(IReadOnlyList<CustomerOrder> orders)
    {
        _connection = new SqliteConnection(new SqliteConnectionStringBuilder { DataSource = ":memory:", Pooling = false }.ToString());
        _connection.Open();
        _connection.Execute("""
            CREATE TABLE orders (
                Id TEXT PRIMARY KEY NOT NULL,
                Data TEXT NOT NULL,
                Status TEXT GENERATED ALWAYS AS (json_extract(Data, '$.Status')) VIRTUAL
            );
            CREATE INDEX orders_status ON orders (Status);
            """);
        using (var transaction = _connection.BeginTransaction())
        {
            foreach (var order in orders)
            {
                _connection.Execute("INSERT INTO orders (Id, Data) VALUES (@Id, @Data)",
                    new { Id = order.Id.ToString(), Data = JsonSerializer.Serialize(order, OrderJsonContext.Default.CustomerOrder) }, transaction);
            }

            transaction.Commit();
        }

        _projectById = Prepare("SELECT json_extract(Data, '$.Status'), json_extract(Data, '$.Total') FROM orders WHERE Id = $id");
        _id = _projectById.Parameters.Add("$id", SqliteType.Text);
        _projectById.Prepare();
        _scanProject = Prepare("SELECT Id, json_extract(Data, '$.Total') FROM orders WHERE Status = 'shipped'");
        _scanProject.Prepare();
        _sumByStatus = Prepare("SELECT Status, SUM(json_extract(Data, '$.Total')) FROM orders GROUP BY Status");
        _sumByStatus.Prepare();
        _distinctStatuses = Prepare("SELECT DISTINCT Status FROM orders");
        _distinctStatuses.Prepare();
    }

    public string Engine => "SQLite";

    public decimal ProjectById(ObjectId id)
    {
        _id.Value = id.ToString();
        using var reader = _projectById.ExecuteReader();
        return reader.Read() && reader.GetString(0).Length > 0 ? reader.GetDecimal(1) : 0;
    }

    public decimal ScanProject()
    {
        var total = 0m;
        using var reader = _scanProject.ExecuteReader();
        while (reader.Read())
        {
            total += reader.GetString(0).Length > 0 ? reader.GetDecimal(1) : 0;
        }

        return total;
    }

    public decimal SumByStatus()
    {
        var total = 0.0;
        using var reader = _sumByStatus.ExecuteReader();
        while (reader.Read())
        {
            total += reader.GetDouble(1);
        }

        return (decimal)total;
    }

    public decimal DistinctStatuses()
    {
        var total = 0m;
        using var reader = _distinctStatuses.ExecuteReader();
        while (reader.Read())
        {
            total += reader.GetString(0).Length;
        }

        return total;
    }

    public void Dispose() => _connection.Dispose();

    private SqliteCommand Prepare(string sql)
    {
        var command = _connection.CreateCommand();
        command.CommandText = sql;
        return command;
    }
}
