namespace BLite.Samples.WebApi;

public sealed class Todo
{
    public int Id { get; set; }                      // 0 on insert: the database assigns the next number

    public required string Title { get; set; }

    public bool Done { get; set; }
}

/// <summary>
/// The database. <c>AddBLite</c> creates it with the options constructor and shares the one
/// instance across requests, as an embedded database is shared.
/// </summary>
public partial class TodoContext(DocumentDbContextOptions options) : DocumentDbContext(options)
{
    public DocumentCollection<int, Todo> Todos { get; set; } = null!;

    protected override void OnModelCreating(ModelBuilder model) =>
        model.Entity<Todo>().HasIndex(t => t.Done);
}
