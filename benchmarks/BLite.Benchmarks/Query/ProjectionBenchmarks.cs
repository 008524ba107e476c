using System.Text.Json;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using BLite.Benchmarks.Engines.BLiteEngine;
using BLite.Benchmarks.Workload;
using BLite.Bson;
using Dapper;
using Microsoft.Data.Sqlite;

namespace BLite.Benchmarks.Query;

/// <summary>
/// Projections and aggregates pushed down to raw C-BSON (docs/query.md section 5) against SQLite +
/// JSON doing the same work with <c>json_extract</c>, both in memory, side by side per scenario:
/// two fields of one order by id, Id and Total of every shipped order through a Status index, and
/// the total per status over the whole collection. BLite's full FindById is listed beside the
/// projected lookup to show what not materialising saves.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class ProjectionBenchmarks
{
    private IndexedBenchOrdersContext _blite = null!;
    private SqliteConnection _sqlite = null!;
    private SqliteCommand _sqliteProjectById = null!;
    private SqliteParameter _sqliteId = null!;
    private SqliteCommand _sqliteScanProject = null!;
    private SqliteCommand _sqliteSumByStatus = null!;
    private ObjectId[] _keys = [];
    private DocumentProjection<ObjectId, CustomerOrder, StatusAndTotal> _statusAndTotal = null!;
    private int _next;

    [Params(10_000)]
    public int Documents { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        var orders = new OrderGenerator().Generate(Documents);
        _keys = orders.Select(o => o.Id).ToArray();
        new Random(7).Shuffle(_keys);

        _blite = new IndexedBenchOrdersContext(DocumentDbContextOptions.ForMemory());
        _blite.Orders.InsertMany(orders);

        _statusAndTotal = _blite.Orders.Project(o => new StatusAndTotal(o.Status, o.Total));

        _sqlite = new SqliteConnection(new SqliteConnectionStringBuilder { DataSource = ":memory:", Pooling = false }.ToString());
        _sqlite.Open();
        _sqlite.Execute("""
            CREATE TABLE orders (
                Id TEXT PRIMARY KEY NOT NULL,
                Data TEXT NOT NULL,
                Status TEXT GENERATED ALWAYS AS (json_extract(Data, '$.Status')) VIRTUAL
            );
            CREATE INDEX orders_status ON orders (Status);
            """);
        using (var transaction = _sqlite.BeginTransaction())
        {
            foreach (var order in orders)
            {
                _sqlite.Execute("INSERT INTO orders (Id, Data) VALUES (@Id, @Data)",
                    new { Id = order.Id.ToString(), Data = JsonSerializer.Serialize(order, OrderJsonContext.Default.CustomerOrder) }, transaction);
            }

            transaction.Commit();
        }

        _sqliteProjectById = Prepare("SELECT json_extract(Data, '$.Status'), json_extract(Data, '$.Total') FROM orders WHERE Id = $id");
        _sqliteId = _sqliteProjectById.Parameters.Add("$id", SqliteType.Text);
        _sqliteProjectById.Prepare();
        _sqliteScanProject = Prepare("SELECT Id, json_extract(Data, '$.Total') FROM orders WHERE Status = 'shipped'");
        _sqliteScanProject.Prepare();
        _sqliteSumByStatus = Prepare("SELECT Status, SUM(json_extract(Data, '$.Total')) FROM orders GROUP BY Status");
        _sqliteSumByStatus.Prepare();
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _blite.Dispose();
        _sqlite.Dispose();
    }

    [BenchmarkCategory("find-by-id-project-2"), Benchmark(Baseline = true, Description = "SQLite+JSON")]
    public decimal SqliteProjectById()
    {
        _sqliteId.Value = _keys[_next++ % _keys.Length].ToString();
        using var reader = _sqliteProjectById.ExecuteReader();
        return reader.Read() && reader.GetString(0).Length > 0 ? reader.GetDecimal(1) : 0;
    }

    [BenchmarkCategory("find-by-id-project-2"), Benchmark(Description = "BLite projected")]
    public decimal BLiteProjectById()
    {
        var id = _keys[_next++ % _keys.Length];
        var row = _blite.Orders.Query().Where(o => o.Id == id).Select(o => new { o.Status, o.Total }).First();
        return row.Status.Length > 0 ? row.Total : 0;
    }

    [BenchmarkCategory("find-by-id-project-2"), Benchmark(Description = "BLite Project().FindById")]
    public decimal BLitePreparedProjectById()
    {
        var row = _statusAndTotal.FindById(_keys[_next++ % _keys.Length])!;
        return row.Status.Length > 0 ? row.Total : 0;
    }

    [BenchmarkCategory("find-by-id-project-2"), Benchmark(Description = "BLite whole document")]
    public decimal BLiteFindById()
    {
        var order = _blite.Orders.FindById(_keys[_next++ % _keys.Length])!;
        return order.Status.Length > 0 ? order.Total : 0;
    }

    [BenchmarkCategory("scan-status-project"), Benchmark(Baseline = true, Description = "SQLite+JSON")]
    public decimal SqliteScanProject()
    {
        var total = 0m;
        using var reader = _sqliteScanProject.ExecuteReader();
        while (reader.Read())
        {
            total += reader.GetString(0).Length > 0 ? reader.GetDecimal(1) : 0;
        }

        return total;
    }

    [BenchmarkCategory("scan-status-project"), Benchmark(Description = "BLite projected")]
    public decimal BLiteScanProject()
    {
        var total = 0m;
        foreach (var row in _blite.Orders.Query().Where(o => o.Status == "shipped").Select(o => new { o.Id, o.Total }))
        {
            total += row.Id != default ? row.Total : 0;
        }

        return total;
    }

    [BenchmarkCategory("sum-total-by-status"), Benchmark(Baseline = true, Description = "SQLite+JSON")]
    public double SqliteSumByStatus()
    {
        var total = 0.0;
        using var reader = _sqliteSumByStatus.ExecuteReader();
        while (reader.Read())
        {
            total += reader.GetDouble(1);
        }

        return total;
    }

    [BenchmarkCategory("sum-total-by-status"), Benchmark(Description = "BLite projected")]
    public decimal BLiteSumByStatus()
    {
        var total = 0m;
        foreach (var group in _blite.Orders.Query().GroupBy(o => o.Status).Select(g => new { g.Key, Total = g.Sum(o => o.Total) }))
        {
            total += group.Total;
        }

        return total;
    }

    public sealed record StatusAndTotal(string Status, decimal Total);

    private SqliteCommand Prepare(string sql)
    {
        var command = _sqlite.CreateCommand();
        command.CommandText = sql;
        return command;
    }
}
