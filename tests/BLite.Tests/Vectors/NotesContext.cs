namespace BLite.Tests.Vectors;

public sealed class Note
{
    public int Id { get; set; }

    public string Folder { get; set; } = "";

    public string Title { get; set; } = "";

    public float[]? Embedding { get; set; }

    public ReadOnlyMemory<float> Thumbnail { get; set; }
}

/// <summary>Notes with a cosine vector index on Embedding (8 dimensions, to keep the tests small).</summary>
public partial class NotesContext : DocumentDbContext
{
    public const int Dimensions = 8;

    public NotesContext(DocumentDbContextOptions options)
        : base(options)
    {
    }

    public DocumentCollection<int, Note> Notes { get; set; } = null!;

    protected override void OnModelCreating(ModelBuilder model) =>
        model.Entity<Note>()
            .HasVectorIndex(n => n.Embedding, Dimensions, VectorMetric.Euclidean, m: 8, efConstruction: 32)
            .HasIndex(n => n.Folder);
}
