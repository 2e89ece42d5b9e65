export interface Photo {
  photoId: string;
  personId: string;
  fileName: string;
  objectKey: string;
  /** Pixels, when the uploader knew them. */
  width: number | null;
  height: number | null;
  createdAt: string;
}
